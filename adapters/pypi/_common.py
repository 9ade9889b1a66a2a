"""What the adapters in this folder share: the protocol, root URIs, and the
relative part of a path.

Each adapter is a checker protocol v1 process (docs/checker-protocol.md)
that calls one real PyPI package. Run them with a Python that has the
package installed; rootguard_protocol is taken from adapters/python/src of
this repository, so it need not be installed.
"""

import os
import sys
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "src"))

from rootguard_protocol import serve  # noqa: E402  (re-exported)

__all__ = ["serve", "root_paths", "relative_part"]


def root_paths(roots):
    """Each root URI as a path, the way a Python server converts one with the
    standard library: ``urllib.parse.urlsplit``, then
    ``urllib.request.url2pathname`` of its path. A URI that is not ``file:``
    or names a host other than ``localhost`` is ignored. (Whatever else this
    lets through, a query, a fragment, ``%00``, is the conversion's, not the
    package's: rootguard counts it as a root escape.)"""
    out = []
    for uri in roots:
        try:
            parts = urllib.parse.urlsplit(uri)
        except ValueError:
            continue
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            continue
        path = urllib.request.url2pathname(parts.path)
        if path:
            out.append(path)
    return out


def relative_part(path, root):
    """The untrusted part of ``path`` below ``root``, as text: what follows
    ``root`` and one ``/``, unchanged (``..`` and all, for the package to
    judge); ``""`` for the root itself; None when ``path`` does not begin
    with the root's text and a ``/``. Joining the root and this part gives
    ``path`` back, so this split decides nothing the package could get
    wrong, and it never lets a sibling such as ``ROOT2`` through."""
    base = root.rstrip("/")
    if path == root or path == base:
        return ""
    if path.startswith(base + "/"):
        return path[len(base) + 1:]
    return None
