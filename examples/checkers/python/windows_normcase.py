#!/usr/bin/env python3
"""FLAWED on purpose. Class: names folded more widely than NTFS folds them.

The bug: everything is as in windows_sound.py (Win32's normalization,
devices, streams, whole components), except that each name is compared by
`ntpath.normcase`, which lower-cases it (`str.lower()`; on Windows,
LCMapStringEx's lower case, which folds the same letters). NTFS compares
each UTF-16 code unit through its upcase table, which leaves the Kelvin
sign `K` (U+212A), `İ`, the Ohm and Ångström signs, titlecase digraphs and
every letter cased since Unicode 5.0 as they are, and never folds beyond
U+FFFF: `C:\\proKj` (with the Kelvin sign, a directory of its own) is
lower-cased into the root `C:\\prokj`, and granted.

Imitates: `os.path.normcase(a) == os.path.normcase(b)`, the documented
way to compare Windows paths in Python.

Escapes with: roots ["file:///C:/prokj"], path "C:\\pro\\u212aj\\secret.txt", op read (flavor windows).
"""

import ntpath

import windows_sound
from windows_sound import check, serve

# BUG: normcase's lower case, not NTFS's upcase table.
windows_sound.upcase = ntpath.normcase


if __name__ == "__main__":
    serve(check)
