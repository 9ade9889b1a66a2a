#!/usr/bin/env python3
"""FLAWED on purpose. Class: link budget (gives up after 12 links, then answers lexically).

The bug: the resolver follows at most 12 links in the whole path (Linux
follows 40); at the 13th it stops and cleans the rest of the path as text
(`.` dropped, `..` pops a name), unresolved links and all, instead of
failing with ELOOP. A chain of 13 links that ends outside the root
(`/b/project/c1` -> `c2` -> ... -> `c13` -> `../outside`) passes for a
path beneath the root.

Imitates: path libraries with their own, smaller link limit (8, 12, 16 and
32 are all found in the wild) whose "too many links" branch returns the
path as it stands rather than an error, so the answer is lexical exactly
where a review never looks.

Escapes with: roots ["file:///b/project"], path "/b/project/c1/secret.txt",
op read (with the chain above and /b/outside/secret.txt).
"""

import os

from component_cap import lexical
from sound import TooManyLinks, Unresolvable, join, resolve, resolve_roots, serve, verdict

LINK_BUDGET = 12  # BUG: not 40, and running out is not an error


def check(roots, path, op):
    usable = resolve_roots(roots)[0]
    try:
        target = resolve(os.fsencode(path), op, max_links=LINK_BUDGET)
    except TooManyLinks as e:
        target = lexical(join(e.expanded))  # BUG: the rest taken as text
    except Unresolvable as e:
        return {"allowed": False, "reason": f"cannot {op}: {e}"}
    return verdict(target, usable)


if __name__ == "__main__":
    serve(check)
