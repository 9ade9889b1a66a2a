"""A 2026-07-28 server whose requestState is readable and trusted, on
purpose: it is base64 of JSON naming the call the client first made (its
tool, its arguments, an expiry), and on the retry the server checks the
retry's own path against the roots in inputResponses but then runs the call
the state names, unchecked ("the call as it was first asked"). No MAC, so
a client that rewrites the state's path or tool reads and writes outside
every root. rootguard mcp must report RG-STATE-UNSEALED and
RG-STATE-TRUSTED."""

import base64
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class UnsealedState(Server):
    eras = ("modern",)
    NAME = "rootguard-unsealed-state"

    def modern_call(self, params, client_has_roots):
        if not client_has_roots:
            return Server.modern_call(self, params, client_has_roots)
        responses = params.get("inputResponses") or {}
        state = self.decode(params.get("requestState"))
        if state is None or "roots" not in responses or state.get("exp", 0) < time.time():
            issued = {"tool": params.get("name"), "arguments": params.get("arguments", {}),
                      "exp": int(time.time()) + 300}
            return {"resultType": "input_required",
                    "inputRequests": {"roots": {"method": "roots/list", "params": {}}},
                    "requestState": base64.b64encode(json.dumps(issued).encode()).decode()}
        self.set_roots(responses["roots"].get("roots", []))
        path = (params.get("arguments") or {}).get("path", "")
        if self.inside(path) is None:
            return {"content": [{"type": "text", "text": "Error: Access denied: %s" % path}], "isError": True}
        # The flaw: the state's call, which the client can rewrite, runs unchecked.
        self.flaw = lambda p: os.path.realpath(p)
        try:
            return self.run_tool({"name": state.get("tool"), "arguments": state.get("arguments") or {}})
        finally:
            self.flaw = None

    @staticmethod
    def decode(state):
        try:
            return json.loads(base64.b64decode(state))
        except (TypeError, ValueError):
            return None


main(refresh=True, cls=UnsealedState)
