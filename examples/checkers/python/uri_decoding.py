#!/usr/bin/env python3
"""FLAWED on purpose. Class: URI decoding (a root escape).

The bug: the root URI is turned into a path sloppily, then everything else is
sound. It
  * trims whitespace and quotes around the URI first, as the MCP reference
    filesystem server's normalizePath once did for its arguments;
  * takes `urlsplit(uri).path`, so any host (`file://srv/x`), a query and a
    fragment are silently dropped instead of making the root invalid;
  * unquotes twice ("in case the client double-encoded"), so `%252e%252e`
    becomes `..`, and never rejects `%2F` or `%00`.

Imitates: the ubiquitous `unquote(urlparse(uri).path)` in Python MCP servers
and IDE integrations.

Escapes with: roots ["file://srv/b/outside"], path "/b/outside/secret.txt",
op read (the root is invalid and must grant nothing); likewise
"file:///b/project%2F..%2Foutside", "file:///b/project/%252e%252e/outside",
"file:///b/outside?x=1" and " file:///b/outside ".
"""

import os
from urllib.parse import unquote, urlsplit

from sound import Unresolvable, join, resolve, serve, show, within


def root_path(uri: str) -> bytes:
    uri = uri.strip().strip("\"'")  # BUG: an invalid root is "repaired"
    parts = urlsplit(uri)  # BUG: netloc, query and fragment are ignored
    if parts.scheme != "file":
        raise ValueError("not a file URI")
    return os.fsencode(unquote(unquote(parts.path)))  # BUG: twice, and %2F/%00 pass


def check(roots, path, op):
    real_roots = []
    for uri in roots:
        try:
            real_roots.append(resolve(root_path(uri), "read"))
        except (ValueError, AttributeError, Unresolvable):
            pass
    try:
        target = resolve(os.fsencode(path), op)
    except Unresolvable as e:
        return {"allowed": False, "reason": f"cannot {op}: {e}"}
    for root in real_roots:
        if within(target, root):
            return {"allowed": True, "reason": f"{show(join(target))} is beneath {show(join(root))}"}
    return {"allowed": False, "reason": f"{show(join(target))} is beneath no root"}


if __name__ == "__main__":
    serve(check)
