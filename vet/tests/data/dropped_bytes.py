#!/usr/bin/env python3
"""FLAWED on purpose, a fixture of vet/tests/bytes.rs. Class: bytes that
are not UTF-8 dropped.

The bug: the path arrives as a `str` holding a lone surrogate for each byte
that is not UTF-8 (`\\udcff` for 0xFF, checker-protocol.md), and is encoded
with `errors="ignore"` before the (otherwise sound) check, so each such
byte is dropped: the checker judges another name than the server opens,
and the sibling `project\\xff` reads as the root `project`.

Imitates: the usual answer to a `UnicodeEncodeError` on a file name,
`name.encode("utf-8", "ignore")` (or `errors="replace"`), where
`os.fsencode` was meant.

Escapes with: roots ["file:///b/project"], path "/b/project\\udcff/secret.txt",
op read (with /b/project\\xff/secret.txt and /b/project/secret.txt).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples", "checkers", "python"))

import sound  # noqa: E402
from sound import serve  # noqa: E402


def check(roots, path, op):
    mangled = path.encode("utf-8", "ignore").decode("utf-8")  # BUG: os.fsencode keeps the bytes
    return sound.check(roots, mangled, op)


if __name__ == "__main__":
    serve(check)
