"""A 2026-07-28 server that takes an empty roots answer for "no
restriction", on purpose (as a `[]` allow-list means full access in some
servers): a retry whose inputResponses list no roots may read anything.
Otherwise the sound modern_server.py. rootguard mcp must report
RG-NO-ROOTS-FAIL-OPEN."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class FailOpen(Server):
    eras = ("modern",)
    NAME = "rootguard-modern-fail-open"

    def set_roots(self, roots):
        if not roots:
            self.allowed = ["/"]
            return
        Server.set_roots(self, roots)


main(refresh=True, cls=FailOpen)
