#!/usr/bin/env python3
"""FLAWED on purpose. Class: case-sensitive compare on NTFS.

The bug: everything is as in windows_sound.py, except that names are
compared exactly as written: NTFS takes `C:\\PROJ`, `c:\\proj` and `C:\\Proj`
as one directory, so a client that spells the root otherwise is refused
(an overblock: the checker denies what it should allow, and a tool cannot
reach its own project).

Imitates: `ntpath.normpath(p).startswith(root + "\\\\")` or component lists
compared with `==`, code written and tested on Linux and run on Windows.

Overblocks with: roots ["file:///C:/proj"], path "C:\\PROJ\\notes.txt", op read (flavor windows).
"""

import windows_sound
from windows_sound import check, serve

# BUG: no case folding, where NTFS folds case.
windows_sound.upcase = lambda name: name


if __name__ == "__main__":
    serve(check)
