"""Compares the resolved path with each root as text (`startswith`,
no separator): a sibling such as `project2` passes for the root
`project` (CVE-2025-53110's bug). `rootguard mcp` must report
RG-PREFIX-SIBLING."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


def flaw(self, path):
    real = os.path.realpath(path)
    return real if any(real.startswith(root) for root in self.allowed) else None


Server.flaw = flaw
main(refresh=True)
