"""Resolves an existing path soundly, but a path that does not exist
(a dangling link among them) by its parent's real path and its own name;
the write then follows the dangling link out of the root. `rootguard mcp`
must report RG-DANGLING-WRITE."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


def flaw(self, path):
    if os.path.exists(path):
        return self.sound(path)
    candidate = os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
    return candidate if self.within(candidate) else None


Server.flaw = flaw
main(refresh=True)
