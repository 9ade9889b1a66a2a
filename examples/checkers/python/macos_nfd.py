#!/usr/bin/env python3
"""FLAWED on purpose. Class: APFS name normalization.

The bug: everything is as in macos_sound.py (`/private` links, whole
components, case ignored), except that names are compared as text,
`a.lower() == b.lower()`, with no Unicode normalization. APFS takes `Café`
composed (NFC, U+00E9) and decomposed (NFD, `e` + U+0301) as one name, and
clients send either (macOS's own APIs hand out NFD, most other software
NFC): a path in the other form than the root's is refused (an overblock:
the project cannot be reached by the spelling the client sends).

Imitates: code written where file systems compare bytes, run on a Mac;
or one that NFC-normalizes the path it was given but not the roots.

Overblocks with: roots ["file:///private/tmp/Caf%C3%A9"], path "/private/tmp/Cafe\\u0301/notes.txt", op read (flavor macos).
"""

import macos_sound
from macos_sound import check, serve

# BUG: case folded, normalization not: NFC and NFD are two names here.
macos_sound.same = lambda a, b: a.lower() == b.lower()


if __name__ == "__main__":
    serve(check)
