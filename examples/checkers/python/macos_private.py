#!/usr/bin/env python3
"""FLAWED on purpose. Class: macOS `/private` links.

The bug: everything is as in macos_sound.py (APFS names, whole components),
except that `/tmp`, `/var` and `/etc` are taken as the directories they
seem to be: `..` is removed from the text (`posixpath.normpath`). On macOS
they are links into `/private`, so `/tmp/../Users/me/proj/secret.txt` is
`/private/Users/me/proj/secret.txt`, not `/Users/me/proj/secret.txt`; and
`/private/tmp/proj` is refused for the root `file:///tmp/proj` (an
overblock).

Imitates: `os.path.normpath(p).startswith(...)`-style checks written on
Linux, where `/tmp` is a directory.

Escapes with: roots ["file:///Users/me/proj"], path "/tmp/../Users/me/proj/secret.txt", op read (flavor macos).
"""

import posixpath

import macos_sound
from macos_sound import check, serve

_components = macos_sound.components


def lexical(text: str) -> list[str]:
    _components(text)  # the same refusals: NUL, not UTF-8, not absolute
    # BUG: `..` taken on the text, and no `/private` link followed.
    return [name for name in posixpath.normpath(text).split("/") if name]


macos_sound.components = lexical


if __name__ == "__main__":
    serve(check)
