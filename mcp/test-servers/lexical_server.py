"""Judges the path lexically only (`normpath`, no link resolved) and
opens it as given, so a link in the root leads anywhere. `rootguard mcp`
must report RG-LINK-FOLLOWED."""

import os
import posixpath
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


def flaw(self, path):
    normal = posixpath.normpath(path)
    return path if self.within(normal) else None


Server.flaw = flaw
main(refresh=True)
