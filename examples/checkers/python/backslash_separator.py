#!/usr/bin/env python3
"""FLAWED on purpose. Class: backslash as a separator.

The bug: every `\\` in the path is turned into `/` before the (otherwise
sound) resolution and check. On Linux `\\` is a byte of a name like any
other, so `/b\\project\\new.txt` is one new file `b\\project\\new.txt` in
`/`'s child beside `b`, not `/b/project/new.txt`: the checker judges one
path and the server writes another.

Imitates: code written to run on Windows and POSIX alike that "normalizes
separators" first (`p.replace('\\\\', '/')`, Node's `upath` or `slash`, or
`path.win32.normalize` on every platform) and then hands the original
string to the file system.

Escapes with: roots ["file:///b/project"], path "/b\\\\project\\\\new.txt"
(JSON), op write.
"""

import sound
from sound import serve


def check(roots, path, op):
    return sound.check(roots, path.replace("\\", "/"), op)  # BUG: `\` is not a separator here


if __name__ == "__main__":
    serve(check)
