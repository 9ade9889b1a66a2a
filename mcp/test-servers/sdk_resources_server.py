"""A sound file server that also has the resources capability with
nothing in it, as the MCP SDKs build one: `resources/list` and
`resources/templates/list` answer empty lists, and every `resources/read`
gets -32602 `Unknown resource: URI` (the Python SDK's answer; the
TypeScript SDK's is `Resource URI not found`). The door was looked up and
held: `rootguard mcp` must count it attacked, and the run conclusive."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class SdkServer(Server):
    def handle(self, msg):
        method, mid = msg.get("method"), msg.get("id")
        if method == "resources/list":
            self.send({"jsonrpc": "2.0", "id": mid, "result": {"resources": []}})
        elif method == "resources/templates/list":
            self.send({"jsonrpc": "2.0", "id": mid, "result": {"resourceTemplates": []}})
        elif method == "resources/read":
            uri = (msg.get("params") or {}).get("uri")
            self.send({"jsonrpc": "2.0", "id": mid, "error": {
                "code": -32602, "message": "Unknown resource: %s" % uri, "data": {"uri": uri}}})
        else:
            super().handle(msg)


main(refresh=True, cls=SdkServer)
