#!/usr/bin/env python3
"""FLAWED on purpose. Class: sibling prefix.

The bug: the path and the roots are resolved correctly (links, physical `..`,
dangling writes: all as in sound.py), but containment is decided by text,
`target.startswith(root)`, so `/b/project2/secret.txt` passes for the root
`/b/project`.

Imitates: `os.path.realpath(p).startswith(os.path.realpath(root))`, the most
common containment test in Python tools, and the same mistake as the MCP
reference filesystem server's releases before mid-2025
(`normalizedRequested.startsWith(dir)`, the directory-containment bypass
reported as CVE-2025-53110).

Escapes with: roots ["file:///b/project"], path "/b/project2/secret.txt", op read.
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
        if real.startswith(root):  # BUG: text prefix, not whole components
            return {"allowed": True, "reason": f"{show(real)} starts with {show(root)}"}
    return {"allowed": False, "reason": f"{show(real)} starts with no root"}


if __name__ == "__main__":
    serve(check)
