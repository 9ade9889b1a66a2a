"""A 2026-07-28 server that breaks the revision in one way, named by its
first argument (the rest are its directories):

- bad-result-type: answers tools/call with resultType "partial";
- asks-forever: answers every tools/call, retries too, with input_required;
- pushes-request: sends a roots/list request of its own on stdout, which
  the revision forbids on stdio.

Its path check is the sound one of mini_fs_server.py.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402

MODE = sys.argv.pop(1) if len(sys.argv) > 1 else "asks-forever"


class Misbehaving(Server):
    eras = ("modern",)
    NAME = "rootguard-modern-misbehaving-" + MODE
    rounds = 0

    def modern_call(self, params, client_has_roots):
        if MODE == "bad-result-type":
            return {"resultType": "partial", "content": []}
        if MODE == "asks-forever":
            self.rounds += 1
            return {"resultType": "input_required",
                    "inputRequests": {"roots": {"method": "roots/list", "params": {}}},
                    "requestState": "round-%d" % self.rounds}
        self.send({"jsonrpc": "2.0", "id": "push-1", "method": "roots/list"})
        return Server.modern_call(self, params, client_has_roots)


main(refresh=True, cls=Misbehaving)
