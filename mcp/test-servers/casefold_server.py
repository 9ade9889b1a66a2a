"""Compares resolved paths case-insensitively, as on a case-folding file
system; on Linux `PROJECT` is another directory. `rootguard mcp` must
report RG-CASE-FOLD."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


def flaw(self, path):
    real = os.path.realpath(path)
    folded = real.lower()
    return real if any(
        folded == root.lower() or folded.startswith(root.lower().rstrip("/") + "/") for root in self.allowed
    ) else None


Server.flaw = flaw
main(refresh=True)
