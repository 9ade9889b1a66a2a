#!/usr/bin/env python3
"""FLAWED on purpose. Class: component cap (a resolver that gives up on long paths).

The bug: a path of more than 48 components is not resolved at all: it is
cleaned as text (`.` dropped, `..` pops a name) and compared with the
resolved roots, so a link out of the root deep inside a long path
(`/b/project/./././.../linkout/secret.txt`) passes.

Imitates: resolvers with a fixed-size component stack or a "fast path" for
long inputs (a table of 48 slots, a recursion depth guard) that fall back to
a lexical normalization instead of failing closed; the escape shows only on
paths longer than any a reviewer tries by hand.

Escapes with: roots ["file:///b/project"], path "/b/project" + "/." * 48 +
"/linkout/secret.txt", op read (with /b/project/linkout -> ../outside).
"""

import os

from sound import Unresolvable, resolve, resolve_roots, serve, verdict

MAX_COMPONENTS = 48  # BUG: past this, the path is only cleaned as text


def lexical(path: bytes) -> list[bytes]:
    """The components of `path` with `.` and `..` taken as text."""
    kept: list[bytes] = []
    for name in path.split(b"/"):
        if name in (b"", b"."):
            continue
        if name == b"..":
            if kept:
                kept.pop()
            continue
        kept.append(name)
    return kept


def check(roots, path, op):
    usable = resolve_roots(roots)[0]
    raw = os.fsencode(path)
    if len([c for c in raw.split(b"/") if c]) > MAX_COMPONENTS:
        target = lexical(raw)  # BUG: "too long to resolve", so taken as text
    else:
        try:
            target = resolve(raw, op)
        except Unresolvable as e:
            return {"allowed": False, "reason": f"cannot {op}: {e}"}
    return verdict(target, usable)


if __name__ == "__main__":
    serve(check)
