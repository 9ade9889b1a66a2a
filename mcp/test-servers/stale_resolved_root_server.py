"""Resolves each root's real path once, at the first call after the roots
arrive, and keeps it: a path beneath a root's spelling is checked as the
same path beneath the cached real path, but opened as the user gave it.
After the root link is swapped, `rootlink/sub/...` is checked as
`proj/sub/...` (inside) and opened through the new link (outside): the
stale resolution `rootguard mcp` must catch (roots-change-link-swapped-*).
Its sound counterpart is fresh_resolved_root_server.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class StaleResolved(Server):
    NAME = "rootguard-stale-resolved-root"
    resolved = None

    def set_roots(self, roots):
        Server.set_roots(self, roots)
        self.resolved = None

    def stale(self, path):
        if self.resolved is None:
            # Once: each root as given, with its real path then.
            self.resolved = [(os.path.normpath(r), os.path.realpath(r)) for r in self.roots if os.path.isdir(r)]
        checked = path
        for given, real in self.resolved:
            if path == given or path.startswith(given.rstrip("/") + "/"):
                checked = real + path[len(given):]
                break
        checked = os.path.realpath(checked)
        inside = any(checked == real or checked.startswith(real.rstrip("/") + "/") for _, real in self.resolved)
        return path if inside else None

    flaw = stale


main(refresh=True, cls=StaleResolved)
