#!/usr/bin/env python3
"""FLAWED on purpose. Class: case folding.

The bug: the path and the roots are resolved correctly, then both are
lowercased before a (correct, component-wise) comparison, so on Linux's
case-sensitive file system `/b/Project/secret.txt` (a different directory)
passes for the root `/b/project`.

Imitates: code written for macOS or Windows, where the default file systems
fold case, that "normalizes" with `.lower()` (or `casefold()`) and runs
unchanged on Linux; the first releases of the MCP reference filesystem server
did it too (`normalizePath(p) = path.normalize(p).toLowerCase()`, on the
path and on the allowed directories).

Escapes with: roots ["file:///b/project"], path "/b/Project/secret.txt", op read
(with /b/Project an existing directory beside /b/project).
"""

import os

from sound import Unresolvable, join, resolve, resolve_roots, serve, show


def check(roots, path, op):
    real_roots = [join(r) for r in resolve_roots(roots)[0]]
    try:
        real = join(resolve(os.fsencode(path), op))
    except Unresolvable as e:
        return {"allowed": False, "reason": f"cannot {op}: {e}"}
    for root in real_roots:
        # BUG: "paths are case-insensitive", which Linux's are not
        if os.path.commonpath([real.lower(), root.lower()]) == root.lower():
            return {"allowed": True, "reason": f"{show(real)} is beneath {show(root)}, ignoring case"}
    return {"allowed": False, "reason": f"{show(real)} is beneath no root"}


if __name__ == "__main__":
    serve(check)
