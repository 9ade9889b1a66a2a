#!/usr/bin/env python3
"""Checker protocol v1 adapter for ``werkzeug.security.safe_join`` (PyPI
``werkzeug``):

    python3 adapters/pypi/werkzeug_safe_join.py

The call and why: werkzeug documents ``safe_join(directory, *untrusted)`` as
the way to "safely join zero or more untrusted path components to a trusted
base directory to avoid escaping the base directory", returning ``None``
when the path is not safe; ``send_from_directory(directory, path, environ)``
(Flask's too) is ``safe_join`` then ``os.path.isfile``. So the checker is:

  - each root URI becomes a directory (``_common.root_paths``: urlsplit +
    url2pathname);
  - the request's path, which is absolute, is split at the root's text
    (``_common.relative_part``: what follows ``ROOT/``, unchanged), since
    ``safe_join`` takes a path relative to the directory (an absolute one is
    refused);
  - allowed when ``safe_join(root, rest)`` is not None for some root, and
    the caller then operates on the path it returned (``use``).

Its docstring says it "only considers the path name, it does not validate
if it does or does not exist, if it is a symlink": links are not its
business, by design. Reads and writes are judged alike (the helper has no
notion of either).
"""

import werkzeug
from werkzeug.security import safe_join

from _common import relative_part, root_paths, serve


def check(roots, path, op):
    for root in root_paths(roots):
        rest = relative_part(path, root)
        if rest is None:
            continue
        joined = safe_join(root, rest)
        if joined is not None:
            return {"allowed": True, "use": joined, "reason": f"safe_join({root!r}, {rest!r}) = {joined!r}"}
    return {"allowed": False, "reason": "safe_join gave None under every root"}


if __name__ == "__main__":
    import importlib.metadata, sys
    sys.stderr.write(f"werkzeug {importlib.metadata.version('werkzeug')} from {werkzeug.__file__}\n")
    serve(check)
