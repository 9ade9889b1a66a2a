#!/usr/bin/env python3
"""FLAWED on purpose. Class: Win32 trailing-dot stripping.

The bug: everything is as in windows_sound.py, except that the trailing
dots and spaces Win32 strips are stripped from the whole text first,
`path.rstrip(". ")`, before `..` is removed. Win32 strips them from the
last component after `.` and `..` are gone, so a final `..` is eaten as if
it were dots: `C:\\proj\\src\\..\\..` is judged as `C:\\proj\\src\\` (inside)
while Windows opens `C:\\`.

Imitates: servers that "do what Windows does" to trailing dots and spaces
by trimming the argument before they normalize it.

Escapes with: roots ["file:///C:/proj"], path "C:\\proj\\..", op read (flavor windows).
"""

from windows_sound import check as sound_check
from windows_sound import serve


def check(roots, path, op):
    # BUG: stripped before normalization, so a final `..` is taken for dots.
    return sound_check(roots, path.rstrip(". ") if isinstance(path, str) else path, op)


if __name__ == "__main__":
    serve(check)
