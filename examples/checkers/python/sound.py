#!/usr/bin/env python3
"""A sound path-boundary checker speaking rootguard's checker protocol v1.

Run it as a long-lived process: one JSON request per line on stdin, one JSON
response per line on stdout, exit when stdin closes.

    python3 examples/checkers/python/sound.py

It follows docs/semantics.md exactly, with nothing but the standard
library (Python 3.11):

* root URIs are parsed strictly (section 1) into bytes, then resolved the way
  realpath(3) does; an invalid or unresolvable root grants nothing;
* the path is resolved one component at a time with os.lstat/os.readlink on
  bytes, `..` is taken physically, at most 40 links are expanded, and a write
  follows a final symlink even when it dangles (section 2);
* the target is inside a root only if the root's components are a prefix of
  the target's (section 3).

Whatever cannot happen (the spec's `either`) it denies with a reason. The
protocol itself (reading requests, denying malformed ones, writing answers)
is the adapter library's `serve` (adapters/python: `pip install` it, or this
file finds it in the clone). The other example checkers import the pieces
they keep sound, and `serve`, from here.
"""

import os
import stat
import sys

try:
    from rootguard_protocol import serve  # the protocol loop: adapters/python
except ImportError:  # not installed: the copy in this clone of rootguard
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../adapters/python/src"))
    from rootguard_protocol import serve

MAX_LINKS = 40  # Linux's MAXSYMLINKS: the 41st expansion is ELOOP
PATH_MAX = 4096  # the kernel refuses a path argument this long (ENAMETOOLONG)

_HEX = frozenset("0123456789abcdefABCDEF")
# RFC 3986 pchar plus "/": unreserved, sub-delims, ":" and "@" ("%" is checked apart).
_PATH_CHARS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    "-._~" "!$&'()*+,;=" ":@" "/"
)


class InvalidRoot(Exception):
    """A root URI breaks a rule of semantics.md section 1."""


class Unresolvable(Exception):
    """The operation cannot happen (the spec's `either`): ENOENT, ENOTDIR, ELOOP, ..."""


class TooManyLinks(Unresolvable):
    """More links than the limit: ELOOP. `expanded` is what was left to walk."""

    def __init__(self, message: str, expanded: list[bytes]):
        super().__init__(message)
        self.expanded = expanded


def show(raw: bytes) -> str:
    """Bytes as readable text for a reason string (always valid Unicode)."""
    return raw.decode("utf-8", "backslashreplace")


def join(components: list[bytes]) -> bytes:
    """The absolute path of a list of components (the empty list is `/`)."""
    return b"/" + b"/".join(components)


# --- Section 1: roots --------------------------------------------------------


def parse_root_uri(uri: str) -> bytes:
    """The absolute, lexically normal path a valid root URI names.

    Raises InvalidRoot naming the rule the URI breaks.
    """
    if not isinstance(uri, str):
        raise InvalidRoot("root is not a string")
    head = uri[:5]
    if not head.isascii() or head.lower() != "file:":
        raise InvalidRoot("scheme is not file")
    rest = uri[5:]
    for i, ch in enumerate(rest):
        if ch == "%":
            if rest[i + 1 : i + 2] not in _HEX or rest[i + 2 : i + 3] not in _HEX:
                raise InvalidRoot("'%' not followed by two hex digits")
        elif ch in "?#":
            raise InvalidRoot("query or fragment")
        elif ch not in _PATH_CHARS:
            raise InvalidRoot(f"character {ch!r} is not allowed in a URI path")
    if rest.startswith("//"):
        slash = rest.find("/", 2)
        authority = rest[2:] if slash < 0 else rest[2:slash]
        if authority.lower() not in ("", "localhost"):
            raise InvalidRoot(f"authority {authority!r} is neither empty nor localhost")
        if slash < 0:
            raise InvalidRoot("no path after the authority")
        path = rest[slash:]
    elif rest.startswith("/"):
        path = rest  # the RFC 8089 file:/path form
    else:
        raise InvalidRoot("path is not absolute")
    # Split before decoding: a decoded "/" is refused anyway, so this is the same.
    # RFC 3986 5.2.4 counts empty segments, so "/a//../b" is "/a/b"; only
    # then do empty segments collapse.
    kept: list[bytes] = []
    for encoded in path.split("/")[1:]:
        segment = _percent_decode(encoded)
        if segment == b".":
            continue
        if segment == b"..":
            if kept:
                kept.pop()
            continue
        kept.append(segment)
    return join([segment for segment in kept if segment])


def _percent_decode(segment: str) -> bytes:
    out = bytearray()
    i = 0
    while i < len(segment):
        if segment[i] == "%":
            byte = int(segment[i + 1 : i + 3], 16)
            if byte == 0x2F:
                raise InvalidRoot("%2F would smuggle a '/' into a segment")
            if byte == 0:
                raise InvalidRoot("%00 would smuggle a NUL into a segment")
            out.append(byte)
            i += 3
        else:
            out.append(ord(segment[i]))  # ASCII: checked above
            i += 1
    return bytes(out)


def resolve_roots(uris) -> tuple[list[list[bytes]], list[str]]:
    """The resolved components of every usable root, and a note per unusable one."""
    usable: list[list[bytes]] = []
    notes: list[str] = []
    for uri in uris:
        try:
            usable.append(resolve(parse_root_uri(uri), "read"))
        except InvalidRoot as e:
            notes.append(f"root {uri!r} is invalid: {e}")
        except Unresolvable as e:
            notes.append(f"root {uri!r} does not resolve: {e}")
    return usable, notes


# --- Section 2: the target ---------------------------------------------------


def _components(path: bytes) -> list[bytes]:
    parts = [c for c in path.split(b"/") if c]
    if path.endswith(b"/") and parts:
        parts.append(b".")  # a trailing slash demands a directory, as "/." does
    return parts


def resolve(path: bytes, op: str, max_links: int = MAX_LINKS) -> list[bytes]:
    """The components of what `op` on `path` would touch, every link followed.

    For "write" the result may name a file that does not exist yet (it would be
    created). Raises Unresolvable when the operation cannot happen.
    """
    if b"\0" in path:
        raise Unresolvable("NUL byte in path")
    if not path.startswith(b"/"):
        raise Unresolvable("path is not absolute")
    if len(path) >= PATH_MAX:
        raise Unresolvable("path too long (ENAMETOOLONG)")
    if op == "write" and path.endswith(b"/"):
        raise Unresolvable("a write path may not end in '/'")
    todo = _components(path)
    todo.reverse()  # a stack: the next component is at the end
    current: list[bytes] = []  # always a real directory: no link in it
    current_is_dir = True
    links = 0
    while todo:
        name = todo.pop()
        if name == b".":
            continue
        if name == b"..":
            if current:
                current.pop()  # physical: `current` holds no link
            current_is_dir = True
            continue
        candidate = join(current + [name])
        try:
            st = os.lstat(candidate)
        except FileNotFoundError:
            if not todo and op == "write":
                return current + [name]  # created in the resolved parent
            raise Unresolvable(f"{show(candidate)} does not exist") from None
        except OSError as e:
            raise Unresolvable(f"{show(candidate)}: {e.strerror}") from None
        if stat.S_ISLNK(st.st_mode):
            links += 1
            if links > max_links:
                left = current + [name] + todo[::-1]
                raise TooManyLinks("too many levels of symbolic links (ELOOP)", left)
            try:
                target = os.readlink(candidate)
            except OSError as e:
                raise Unresolvable(f"{show(candidate)}: {e.strerror}") from None
            if target.startswith(b"/"):
                current = []
            todo.extend(reversed(_components(target)))
            continue  # a final link is followed for write too, even dangling
        if todo and not stat.S_ISDIR(st.st_mode):
            raise Unresolvable(f"{show(candidate)} is not a directory (ENOTDIR)")
        current.append(name)
        current_is_dir = stat.S_ISDIR(st.st_mode)
    if op == "write" and current_is_dir:
        raise Unresolvable(f"{show(join(current))} is a directory")
    return current


# --- Section 3: the verdict --------------------------------------------------


def within(target: list[bytes], root: list[bytes]) -> bool:
    """True when `target` is `root` or beneath it, by whole components."""
    return target[: len(root)] == root


def check(roots: list, path: str, op: str) -> dict:
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:
        return {"allowed": False, "reason": "path is not encodable as bytes"}
    usable, notes = resolve_roots(roots)
    if not usable:
        return {"allowed": False, "reason": "; ".join(["no usable root"] + notes)}
    try:
        target = resolve(raw, op)
    except Unresolvable as e:
        return {"allowed": False, "reason": f"cannot {op}: {e}"}
    return verdict(target, usable)


def verdict(target: list[bytes], usable: list[list[bytes]]) -> dict:
    """Allowed when `target` is beneath one of the `usable` roots."""
    for root in usable:
        if within(target, root):
            return {"allowed": True, "reason": f"{show(join(target))} is beneath {show(join(root))}"}
    return {"allowed": False, "reason": f"{show(join(target))} is beneath no root"}


# --- The protocol ------------------------------------------------------------

if __name__ == "__main__":
    serve(check)
