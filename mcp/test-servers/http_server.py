"""The sound file server of mini_fs_server.py over Streamable HTTP
(http.server from the stdlib, bound to 127.0.0.1 only). Arguments: the
era (`modern` or `legacy`), the port, then its directories.

- modern (2026-07-28): stateless, no sessions; every POST must carry
  `MCP-Protocol-Version: 2026-07-28`, `Mcp-Method` equal to the body's
  method and, for tools/call, `Mcp-Name` equal to the tool's name, else
  400 with -32020 HeaderMismatch; tools/call is answered as an SSE
  stream, the rest as JSON; GET and DELETE get 405.
- legacy (2025-11-25): `initialize` mints an `Mcp-Session-Id` that every
  later POST must carry (else 400); roots are asked inside tools/call
  results (input_required), as mrtr_server.py does, since this server
  opens no stream of its own.
"""

import json
import os
import sys
import uuid
from http.server import BaseHTTPRequestHandler, HTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import META_VERSION, MODERN, Server  # noqa: E402

ERA = sys.argv[1]
PORT = int(sys.argv[2])


class Collecting(Server):
    """Collects what it sends for the POST being answered."""
    eras = ("modern",) if ERA == "modern" else ("legacy",)
    mrtr = ERA == "legacy"
    NAME = "rootguard-http-" + ERA
    outbox = []

    def send(self, message):
        self.outbox.append(message)


SERVER = Collecting(True, sys.argv[3:])
SESSIONS = set()


def header_error(mid, why):
    return {"jsonrpc": "2.0", "id": mid, "error": {"code": -32020, "message": "Header mismatch: " + why}}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body=None, headers=(), sse=False):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        if body is None:
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if sse:
            text = "".join("event: message\ndata: %s\n\n" % json.dumps(m) for m in body)
            self.send_header("Content-Type", "text/event-stream")
        else:
            text = json.dumps(body)
            self.send_header("Content-Type", "application/json")
        data = text.encode()
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.reply(405)

    do_DELETE = do_GET

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        try:
            msg = json.loads(self.rfile.read(length))
        except ValueError:
            return self.reply(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
        method, mid = msg.get("method"), msg.get("id")
        params = msg.get("params") or {}
        extra = []
        if ERA == "modern":
            if self.headers.get("MCP-Protocol-Version") != MODERN:
                return self.reply(400, header_error(mid, "MCP-Protocol-Version"))
            if (params.get("_meta") or {}).get(META_VERSION) not in (None, MODERN):
                return self.reply(400, header_error(mid, "MCP-Protocol-Version differs from _meta"))
            if method is not None and self.headers.get("Mcp-Method") != method:
                return self.reply(400, header_error(mid, "Mcp-Method"))
            if method == "tools/call" and self.headers.get("Mcp-Name") != params.get("name"):
                return self.reply(400, header_error(mid, "Mcp-Name"))
        elif method == "initialize":
            sid = uuid.uuid4().hex
            SESSIONS.add(sid)
            extra.append(("Mcp-Session-Id", sid))
        elif self.headers.get("Mcp-Session-Id") not in SESSIONS:
            return self.reply(400, {"jsonrpc": "2.0", "id": mid, "error": {"code": -32600, "message": "Bad Request: no valid session id"}})
        Collecting.outbox = []
        SERVER.handle(msg)
        out = Collecting.outbox
        if mid is None or method is None:
            return self.reply(202, headers=extra)
        if not out:
            return self.reply(202, headers=extra)
        if ERA == "modern" and out[0].get("error", {}).get("code") == -32601:
            return self.reply(404, out[0], extra)
        if method == "tools/call":
            return self.reply(200, out, extra, sse=True)
        return self.reply(200, out[0], extra)


HTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
