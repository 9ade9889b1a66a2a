#!/usr/bin/env python3
"""FLAWED on purpose. Class: sibling prefix (Windows).

The bug: the path is normalized as Windows does (`ntpath.normpath`, case
folded with `ntpath.normcase`), and the roots are parsed as in
windows_sound.py, but containment is decided by text,
`target.startswith(root)`, so `C:\\proj2\\secret.txt` passes for the root
`file:///C:/proj`; nor are DOS device names refused.

Imitates: `os.path.normcase(os.path.abspath(p)).startswith(os.path.normcase(root))`,
the containment test of many Python tools on Windows, the same mistake as
the MCP reference filesystem server's `startsWith` (CVE-2025-53110).

Escapes with: roots ["file:///C:/proj"], path "C:\\proj2\\secret.txt", op read (flavor windows).
"""

import ntpath

from windows_sound import Denied, root_path, serve


def check(roots, path, op):
    target = ntpath.normcase(ntpath.normpath(path))
    for uri in roots:
        try:
            root = ntpath.normcase(root_path(uri))
        except (Denied, UnicodeError):
            continue
        if target.startswith(root):  # BUG: text prefix, not whole components
            return {"allowed": True, "reason": f"{target} starts with {root}"}
    return {"allowed": False, "reason": f"{target} starts with no root"}


if __name__ == "__main__":
    serve(check)
