#!/usr/bin/env python3
"""FLAWED on purpose. Class: Unicode normalization of the path.

The bug: the path is normalized to NFKC before the (otherwise sound)
resolution and check. Linux compares names byte for byte, so the fullwidth
`/b/ｐｒｏｊｅｃｔ` is a different directory from `/b/project`; NFKC folds it
(and ligatures, superscripts, NFD accents, ...) into the root's spelling,
while the server opens the original bytes.

Imitates: input "hygiene" that normalizes user text before use
(`unicodedata.normalize('NFKC', p)`, `str.normalize('NFKC')` in JS), common
where paths are compared as identifiers or displayed; NFC alone does the
same to `café` spelled with a combining accent.

Escapes with: roots ["file:///b/project"], path "/b/ｐｒｏｊｅｃｔ/secret.txt",
op read (with /b/ｐｒｏｊｅｃｔ an existing directory beside /b/project).
"""

import unicodedata

import sound
from sound import serve


def check(roots, path, op):
    return sound.check(roots, unicodedata.normalize("NFKC", path), op)  # BUG: names are bytes


if __name__ == "__main__":
    serve(check)
