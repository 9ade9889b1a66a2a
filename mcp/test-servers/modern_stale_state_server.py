"""A 2026-07-28 server that trusts a stale requestState, on purpose: it
keeps the roots of each retry under the requestState it echoed, and a
later retry echoing a known state gets those roots back, whatever its own
inputResponses say (a "session" smuggled into requestState). rootguard mcp
must report RG-MRTR-STALE-STATE."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class StaleState(Server):
    eras = ("modern",)
    NAME = "rootguard-modern-stale-state"
    roots_by_state = {}

    def modern_call(self, params, client_has_roots):
        state = params.get("requestState")
        responses = params.get("inputResponses") or {}
        if not client_has_roots:
            return Server.modern_call(self, params, client_has_roots)
        if state is None or "roots" not in responses:
            return {"resultType": "input_required",
                    "inputRequests": {"roots": {"method": "roots/list", "params": {}}},
                    "requestState": os.urandom(8).hex()}
        roots = self.roots_by_state.setdefault(state, responses["roots"].get("roots", []))
        self.set_roots(roots)
        return self.run_tool(params)


main(refresh=True, cls=StaleState)
