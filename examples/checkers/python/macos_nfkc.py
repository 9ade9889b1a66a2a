#!/usr/bin/env python3
"""FLAWED on purpose. Class: names folded more widely than APFS folds them.

The bug: everything is as in macos_sound.py (`/private` links, APFS's
own comparison, whole components), except that the path is first
NFKC-normalized, as a "make Unicode safe" step. APFS folds canonical
equivalents and case, never compatibility forms: `ｐroj` (fullwidth),
`proj²` and `proj2`, `‥` and `..` are other names. So
`/Users/me/other/‥/proj/secret.txt`, inside a directory named `‥`, is
judged as `/Users/me/proj/secret.txt`, and `/Users/me/pro²j` as the root
`/Users/me/pro2j`.

Imitates: `unicodedata.normalize('NFKC', path)` before the check, in code
that wants look-alike names to compare equal.

Escapes with: roots ["file:///Users/me/pro2j"], path "/Users/me/pro\\u00b2j/secret.txt", op read (flavor macos).
"""

import unicodedata

from macos_sound import check as sound_check
from macos_sound import serve


def check(roots, path, op):
    # BUG: compatibility normalization, which APFS does not do.
    return sound_check(roots, unicodedata.normalize("NFKC", path) if isinstance(path, str) else path, op)


if __name__ == "__main__":
    serve(check)
