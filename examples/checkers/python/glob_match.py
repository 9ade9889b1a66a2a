#!/usr/bin/env python3
"""FLAWED on purpose. Class: a name read as a pattern.

The bug: the path and the roots are resolved correctly (links, physical `..`,
dangling writes: all as in sound.py), then each component of the path is
matched against the root's with `fnmatch`, the path's component taken as the
pattern. So `/b/[p]roject/secret.txt` (a different directory, named with
brackets) passes for the root `/b/project`: `[p]roject` matches `project` as
a glob, while the kernel opens the directory literally named `[p]roject`.

Imitates: allow-lists matched with `fnmatch`, `glob`, `minimatch` or a
regular expression built from the request, where the author meant patterns
in the configuration and let the request be read as one too.

Escapes with: roots ["file:///b/project"], path "/b/[p]roject/secret.txt",
op read (with /b/[p]roject an existing directory beside /b/project).
"""

import fnmatch
import os

from sound import Unresolvable, join, resolve, resolve_roots, serve, show


def check(roots, path, op):
    real_roots = [join(r) for r in resolve_roots(roots)[0]]
    try:
        real = join(resolve(os.fsencode(path), op))
    except Unresolvable as e:
        return {"allowed": False, "reason": f"cannot {op}: {e}"}
    parts = real.split(b"/")
    for root in real_roots:
        names = root.split(b"/")
        if len(parts) < len(names):
            continue
        # BUG: the path's component is the pattern, matched against the root's.
        pairs = zip(parts, names)
        if all(fnmatch.fnmatchcase(n.decode("latin-1"), p.decode("latin-1")) for p, n in pairs):
            return {"allowed": True, "reason": f"{show(real)} matches {show(root)}"}
    return {"allowed": False, "reason": f"{show(real)} matches no root"}


if __name__ == "__main__":
    serve(check)
