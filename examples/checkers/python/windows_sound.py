#!/usr/bin/env python3
"""A sound Windows path-boundary checker speaking rootguard's checker protocol v1.

    rootguard vet --flavor windows -- python3 examples/checkers/python/windows_sound.py

It reads roots and paths as a careful Windows server would, with `ntpath`
(which runs on any platform) and nothing else, following
docs/semantics.md section 5 ("Windows"):

* a root is a file URI naming a drive or a share (`file:///C:/proj`,
  `file:///c%3A/proj`, `file:C:/proj`, `file://server/share/proj`);
* the path must be absolute (a drive and a root, a UNC share, or a `\\\\.\\`
  or `\\\\?\\` prefix); relative, rooted (`\\x`) and drive-relative (`C:x`)
  paths depend on a current directory and are denied;
* it is normalized as Win32 does, in Win32's order: separators, then `.`
  and `..` (`ntpath.normpath`), then the last component's trailing dots
  and spaces; a verbatim `\\\\?\\` path is not normalized, and one holding
  `.` or `..` is denied;
* a DOS device name (`CON`, `nul.txt`, `COM1`, ...) as the last component
  is denied: Win32 opens the device, in any directory;
* an NTFS stream (`notes.txt:hidden`, `proj::$INDEX_ALLOCATION`) belongs
  to the name before its colon, so each component is judged up to its
  first `:`;
* names are compared whole, component by component, ignoring case as NTFS
  does: each UTF-16 code unit through NTFS's upcase table
  (../ntfs-upcase.json), which is not Unicode's upper case (the Kelvin
  sign, `ß`, `ı`, `ſ` stay as they are; nothing beyond U+FFFF is
  upcased); and a volume must be the same drive or the same server and
  share.

Whatever it cannot be sure of (a short name `PROJEC~1` where the root has a
long name, a name before the last ending in a dot or a space, a character
NTFS refuses) it denies with a reason.
"""

import json
import ntpath
import os
import re
import sys
from urllib.parse import unquote

try:
    from rootguard_protocol import serve  # the protocol loop: adapters/python
except ImportError:  # not installed: the copy in this clone of rootguard
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../adapters/python/src"))
    from rootguard_protocol import serve

_DEVICES = {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"} | {
    f"{kind}{n}" for kind in ("COM", "LPT") for n in "123456789\u00b9\u00b2\u00b3"
}
_REFUSED = set('<>"|?*') | {chr(c) for c in range(32)}
_SHORT = re.compile(r"^[^~.]{1,6}~[0-9]{1,6}(\.[^.]{0,3})?$")




def _upcase_table() -> dict[int, int]:
    """NTFS's upcase table (../ntfs-upcase.json), as the units it changes."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../ntfs-upcase.json")) as f:
        data = json.load(f)
    table: dict[int, int] = {}
    for first, past, amount in data["runs"]:
        for unit in range(first, past):
            table[unit] = unit + amount
    for upper, last in data["pairs"]:
        for unit in range(upper, last, 2):
            table[unit + 1] = table.get(unit + 1, unit + 1) - 1
    for unit, up in data["singles"]:
        table[unit] = up
    return table


_UPCASE = _upcase_table()


class Denied(Exception):
    """The path is not judged inside: why, for the reason string."""


def upcase(name: str) -> str:
    """NTFS's comparison key: each character through NTFS's upcase table
    (a character beyond U+FFFF is two UTF-16 units, which it leaves)."""
    return "".join(chr(_UPCASE.get(ord(c), ord(c))) for c in name)


def is_device(name: str) -> bool:
    """Whether Win32 reads the component as a DOS device name."""
    stem = re.split(r"[.:]", name, maxsplit=1)[0].rstrip(" ")
    return stem.upper() in _DEVICES


def root_path(uri: str) -> str:
    """The Windows path a root URI names, normalized; raises Denied."""
    if not isinstance(uri, str) or uri[:5].lower() != "file:":
        raise Denied("not a file URI")
    rest = uri[5:]
    if "?" in rest or "#" in rest:
        raise Denied("a query or fragment")
    if re.search(r"%(2f|5c|00)", rest, re.IGNORECASE):
        raise Denied("an encoded separator or NUL")
    if rest.startswith("////"):
        path = "//" + rest[4:]
    elif rest.startswith("//"):
        slash = rest.find("/", 2)
        host = rest[2:] if slash < 0 else rest[2:slash]
        tail = "" if slash < 0 else rest[slash:]
        if host.lower() in ("", "localhost"):
            path = tail
        elif host == ".":
            raise Denied("a device server")
        else:
            path = "//" + host + tail
    else:
        path = rest
    path = unquote(path, errors="strict")
    if re.match(r"^/[A-Za-z]:", path):
        path = path[1:]
    return absolute(path)


def absolute(path: str) -> str:
    """A non-verbatim path, normalized as Win32 does; raises Denied."""
    drive, tail = ntpath.splitdrive(path)
    unc = drive[:2] in ("\\\\", "//")
    if not drive or (not unc and tail[:1] not in ("\\", "/")):
        raise Denied("not absolute: it depends on a current directory")
    if unc and len([p for p in re.split(r"[\\/]", drive[2:]) if p]) < 2:
        raise Denied("a UNC path without a server and a share")
    normal = ntpath.normpath(path)
    if not path.endswith(("\\", "/")):
        head, last = ntpath.split(normal)
        stripped = last.rstrip(". ")
        normal = ntpath.join(head, stripped) if stripped else head
    return normal


def location(path: str):
    """(volume, [component keys]) of the file the path names; raises Denied."""
    if "\0" in path:
        raise Denied("a NUL")
    verbatim = path.startswith(("\\\\?\\", "\\??\\"))
    # Win32 maps device names only in drive, rooted and relative paths.
    maps_devices = not verbatim
    if verbatim:
        rest = path[4:]
        parts = rest.split("\\")
        if any(p in ("", ".", "..") or "/" in p for p in parts[1:]):
            raise Denied("a verbatim path with `.`, `..`, `/` or an empty name")
        path = ("\\\\" + rest[4:]) if rest[:4].upper() == "UNC\\" else rest
        normal = path
    else:
        if re.match(r"^[\\/]{2}[.?][\\/]", path):
            rest = path[4:]
            if re.match(r"^UNC[\\/]", rest, re.IGNORECASE):
                path = "\\\\" + rest[4:]
            elif re.match(r"^[A-Za-z]:[\\/]", rest):
                path = rest
                maps_devices = False
            else:
                raise Denied("a device path")
        normal = absolute(path)
    drive, tail = ntpath.splitdrive(normal)
    names = [n for n in tail.split("\\") if n]
    for i, name in enumerate(names):
        if _REFUSED & set(name):
            raise Denied(f"{name!r} holds a character NTFS refuses")
        if i < len(names) - 1 and name.endswith((".", " ")) and not verbatim:
            raise Denied(f"{name!r} ends in a dot or a space before the last name")
    if names and maps_devices and not drive.startswith("\\\\") and is_device(names[-1]):
        raise Denied(f"{names[-1]!r} is a DOS device")
    # A stream belongs to the name before its colon.
    keys = [upcase(n.split(":", 1)[0]) for n in names]
    volume = upcase(drive.replace("/", "\\"))
    return volume, keys


def inside(volume, keys, root_volume, root_keys) -> bool:
    if volume != root_volume or len(keys) < len(root_keys):
        return False
    for mine, theirs in zip(keys, root_keys):
        if mine != theirs:
            if _SHORT.match(mine) or _SHORT.match(theirs):
                raise Denied(f"{mine!r} may be a short name of {theirs!r}, or not")
            return False
    return True


def check(roots, path, op):
    try:
        volume, keys = location(path)
        for uri in roots:
            try:
                root_volume, root_keys = location(root_path(uri))
            except (Denied, UnicodeError):
                continue
            if inside(volume, keys, root_volume, root_keys):
                return {"allowed": True, "reason": f"beneath {uri}"}
        return {"allowed": False, "reason": "beneath no root"}
    except Denied as e:
        return {"allowed": False, "reason": str(e)}


if __name__ == "__main__":
    serve(check)
