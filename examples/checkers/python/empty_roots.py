#!/usr/bin/env python3
"""FLAWED on purpose. Class: empty roots fail open (a root escape).

The bug: when the client sends no roots, or none of them is usable (invalid
or not resolvable), the checker allows everything instead of nothing.
Otherwise it is sound.

Imitates: servers whose allow-list check starts with
`if not allowed_dirs: return True  # no restriction configured`, or that fall
back to "the working directory / the whole disk" when `roots/list` is empty,
which semantics.md section 1 forbids.

Escapes with: roots [], path "/b/outside/secret.txt", op read.
"""

from sound import check as sound_check
from sound import resolve_roots, serve


def check(roots, path, op):
    usable, _ = resolve_roots(roots)
    if not usable:  # BUG: nothing configured is taken as "unrestricted"
        return {"allowed": True, "reason": "no roots: unrestricted"}
    return sound_check(roots, path, op)


if __name__ == "__main__":
    serve(check)
