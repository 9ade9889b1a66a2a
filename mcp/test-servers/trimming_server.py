"""Trims whitespace and quotes off the path before it judges it, and
opens the path as given: a sibling `project"` or `project ` passes for the
root `project` (server-filesystem 2026.8.31's bug). `rootguard mcp` must
report RG-TRIMMED-NAME."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


def flaw(self, path):
    trimmed = path.strip().strip("\"'").strip()
    return path if self.sound(trimmed) is not None else None


Server.flaw = flaw
main(refresh=True)
