"""A 2026-07-28 server that keeps the first roots it was given, on
purpose: after one input_required round trip it never asks again and
judges every later call by those roots, although each request of the
stateless revision carries its own. rootguard mcp must report
RG-MRTR-RETRY-ROOTS."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class Caching(Server):
    eras = ("modern",)
    NAME = "rootguard-modern-caching"
    first_roots = None

    def modern_call(self, params, client_has_roots):
        if self.first_roots is None:
            result = Server.modern_call(self, params, client_has_roots)
            if "inputResponses" in params:
                # The roots as given, resolved at each use: only the list is stale.
                self.first_roots = list(self.roots)
            return result
        self.allowed = self.first_roots
        return self.run_tool(params)


main(refresh=True, cls=Caching)
