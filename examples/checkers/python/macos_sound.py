#!/usr/bin/env python3
"""A sound macOS path-boundary checker speaking rootguard's checker protocol v1.

    rootguard vet --flavor macos -- python3 examples/checkers/python/macos_sound.py

It reads roots and paths as a careful server on macOS would, following
docs/semantics.md section 5 ("macOS"):

* root URIs are parsed as on Linux (section 1, sound.py's parser);
* `/tmp`, `/var` and `/etc` are links to `/private/tmp`, `/private/var`
  and `/private/etc`, followed before any `..` after them, so
  `/tmp/../x` is `/private/x`;
* names are compared as APFS does by default: insensitive to case and to
  Unicode normalization (each name canonically decomposed, NFD, case
  folded and decomposed again), so `Café` in NFC, in NFD and `CAFÉ` are
  one name, and so are `straße` and `STRASSE`; compatibility forms are
  not folded (`ｐroj` is not `proj`);
* containment is by whole components.

The model it follows is lexical (there is no Mac here to ask): a real
server would also resolve its links with realpath. A name that is not
UTF-8 is denied.
"""

import unicodedata

from sound import InvalidRoot, parse_root_uri, serve

PRIVATE_LINKS = ("tmp", "var", "etc")


class Denied(Exception):
    """The path is not judged inside: why, for the reason string."""


def key(name: str) -> str:
    """APFS's comparison key: NFD, case folded, NFD again."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", name).casefold())


def components(text: str) -> list[str]:
    """The names of the location a path names, `/private` links followed."""
    if "\0" in text:
        raise Denied("a NUL")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Denied("not UTF-8: APFS names are UTF-8") from None
    if not text.startswith("/"):
        raise Denied("not absolute")
    out: list[str] = []
    for name in text.split("/"):
        if name in ("", "."):
            continue
        if name == "..":
            if out:
                out.pop()
            continue
        if not out and key(name) in PRIVATE_LINKS:
            out.append("private")
        out.append(name)
    return out


def root_components(uri: str) -> list[str]:
    """The names of the location a root URI names; raises Denied."""
    try:
        path = parse_root_uri(uri)
    except InvalidRoot as e:
        raise Denied(f"invalid root: {e}") from None
    try:
        return components(path.decode("utf-8"))
    except UnicodeDecodeError:
        raise Denied("a root that is not UTF-8") from None


def same(a: str, b: str) -> bool:
    return a == b or key(a) == key(b)


def check(roots, path, op):
    try:
        target = components(path)
    except Denied as e:
        return {"allowed": False, "reason": str(e)}
    for uri in roots:
        try:
            root = root_components(uri)
        except Denied:
            continue
        if len(root) <= len(target) and all(same(r, t) for r, t in zip(root, target)):
            return {"allowed": True, "reason": f"beneath {uri}"}
    return {"allowed": False, "reason": "beneath no root"}


if __name__ == "__main__":
    serve(check)
