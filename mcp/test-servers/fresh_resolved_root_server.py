"""Resolves its roots and the path at each call and opens the resolved
path: a swapped root link or a replaced root directory counts as it is
now. The sound counterpart of stale_resolved_root_server.py; `rootguard mcp`
must pass it."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class FreshResolved(Server):
    NAME = "rootguard-fresh-resolved-root"

    def fresh(self, path):
        real = os.path.realpath(path)
        roots = [os.path.realpath(r) for r in self.roots if os.path.isdir(r)]
        return real if any(real == r or real.startswith(r.rstrip("/") + "/") for r in roots) else None

    flaw = fresh


main(refresh=True, cls=FreshResolved)
