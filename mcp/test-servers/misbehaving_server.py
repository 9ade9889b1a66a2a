"""A server that misbehaves in one way, named by its first argument:

- hang: never answers tools/call;
- exit: exits on tools/call;
- noise: prints a line that is not JSON on stdout before each answer.

The remaining arguments (the root directories) are ignored: it refuses
every path, so nothing it does can be an escape.
"""

import json
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "hang"


def send(message):
    if MODE == "noise":
        sys.stdout.write("starting up...\n")
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
            "serverInfo": {"name": "rootguard-misbehaving-" + MODE, "version": "0.1.0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [{
            "name": "read_text_file", "description": "Read a file",
            "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}]}})
    elif method == "tools/call":
        if MODE == "hang":
            time.sleep(3600)
        if MODE == "exit":
            sys.exit(3)
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "content": [{"type": "text", "text": "Access denied"}], "isError": True}})
    elif mid is not None:
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
