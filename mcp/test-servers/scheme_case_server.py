"""Reads a root URI only when it starts with a lowercase `file://`, and
then takes urllib's path of it: `FILE:///x` and `file:/x` are refused
(valid roots not honoured), while `file://host/x`, `file:///x%2Fy` and
`file:///x?q` grant what they seem to name (root escapes). `rootguard mcp`
must catch it (roots-change-spelling-*)."""

import os
import sys
from urllib.parse import unquote, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class SchemeCase(Server):
    NAME = "rootguard-scheme-case"

    def set_roots(self, roots):
        uris = [r.get("uri", "") for r in roots]
        self.allowed = [unquote(urlsplit(u).path) for u in uris if u.startswith("file://")]


main(refresh=True, cls=SchemeCase)
