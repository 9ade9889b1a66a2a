"""A small MCP file server of rootguard's own, for testing `rootguard mcp`.

Stdlib only; newline-delimited JSON-RPC 2.0 over stdio. Its allowed
directories are the ones on its command line until the client, if it
declares the `roots` capability, answers a `roots/list` request. The path
check is sound (every link followed, whole components compared); what
differs between the two servers built on it is what happens on
`notifications/roots/list_changed`:

- caching_server.py keeps the roots it got first, on purpose (the stale
  cache that `rootguard mcp` must catch);
- refreshing_server.py asks `roots/list` again and uses the new list.
"""

import json
import os
import posixpath
import re
import sys
from urllib.parse import unquote, urlsplit

# RFC 3986 path characters; anything else makes a root URI invalid.
PATH_CHARS = re.compile(r"^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$")


def root_path(uri):
    """The directory a root URI names, or None when it counts for nothing:
    not file:, a host, userinfo or port, a query or fragment, a character
    outside RFC 3986, %2F or %00 (rootguard's docs/semantics.md section 1)."""
    if uri[:5].lower() != "file:":
        return None
    rest = uri[5:]
    if rest.startswith("//"):
        slash = rest.find("/", 2)
        authority = rest[2:] if slash < 0 else rest[2:slash]
        if authority.lower() not in ("", "localhost") or slash < 0:
            return None
        rest = rest[slash:]
    if not rest.startswith("/") or not PATH_CHARS.match(rest):
        return None
    if re.search(r"%2[Ff]|%00", rest):
        return None
    return posixpath.normpath(unquote(rest))


class Server:
    # pushy_server.py sets this: ask roots/list whatever the client declared.
    always_ask = False
    # mrtr_server.py sets this: ask for roots inside each tools/call, as
    # revision 2026-07-28 does it (an input_required result, answered in
    # inputResponses on the retry), never by a request of its own.
    mrtr = False
    # lenient_roots_server.py sets this: read root URIs the lenient way
    # (urllib's urlsplit: query and fragment dropped, any host accepted).
    lenient = False

    def __init__(self, refresh, dirs):
        self.refresh = refresh
        self.allowed = [os.path.realpath(d) for d in dirs]
        self.client_has_roots = False
        self.next_id = 0
        self.pending = {}

    def send(self, message):
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    def ask_roots(self):
        self.next_id += 1
        rid = "roots-%d" % self.next_id
        self.pending[rid] = "roots/list"
        self.send({"jsonrpc": "2.0", "id": rid, "method": "roots/list"})

    def set_roots(self, roots):
        allowed = []
        for root in roots:
            uri = root.get("uri", "")
            path = unquote(urlsplit(uri).path) if self.lenient else root_path(uri)
            if path is not None and os.path.isdir(path):
                allowed.append(os.path.realpath(path))
        self.allowed = allowed

    def inside(self, path):
        if not os.path.isabs(path):
            return None
        # realpath follows every link, a dangling final one too: where the
        # operation would land.
        real = os.path.realpath(path)
        for root in self.allowed:
            if real == root or real.startswith(root.rstrip("/") + "/"):
                return real
        return None

    def tool(self, name, args):
        path = args.get("path", "")
        real = self.inside(path)
        if real is None:
            raise PermissionError("Access denied: %s is outside the allowed directories" % path)
        if name == "read_text_file":
            with open(real, encoding="utf-8", errors="replace") as f:
                return f.read()
        if name == "list_directory":
            return "\n".join(sorted(os.listdir(real)))
        if name == "write_file":
            with open(real, "w", encoding="utf-8") as f:
                f.write(args.get("content", ""))
            return "wrote %s" % path
        raise ValueError("unknown tool %s" % name)

    TOOLS = [
        {"name": "read_text_file", "description": "Read a file",
         "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
        {"name": "list_directory", "description": "List a directory",
         "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
        {"name": "write_file", "description": "Write a file",
         "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                         "required": ["path", "content"]}},
    ]

    def handle(self, msg):
        method = msg.get("method")
        mid = msg.get("id")
        if method is None:
            # A response to one of our requests.
            if self.pending.pop(mid, None) == "roots/list" and "result" in msg:
                self.set_roots(msg["result"].get("roots", []))
            return
        if method == "initialize":
            caps = msg.get("params", {}).get("capabilities", {})
            self.client_has_roots = "roots" in caps
            self.send({"jsonrpc": "2.0", "id": mid, "result": {
                "protocolVersion": msg.get("params", {}).get("protocolVersion", "2025-11-25"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "rootguard-mini-fs-" + ("refreshing" if self.refresh else "caching"),
                               "version": "0.1.0"}}})
        elif method == "notifications/initialized":
            if (self.client_has_roots or self.always_ask) and not self.mrtr:
                self.ask_roots()
        elif method == "notifications/roots/list_changed":
            if self.refresh and not self.mrtr:
                self.ask_roots()
        elif method == "ping":
            self.send({"jsonrpc": "2.0", "id": mid, "result": {}})
        elif method == "tools/list":
            self.send({"jsonrpc": "2.0", "id": mid, "result": {"tools": self.TOOLS}})
        elif method == "tools/call":
            params = msg.get("params", {})
            if self.mrtr and self.client_has_roots:
                responses = params.get("inputResponses")
                if responses is None or params.get("requestState") != "need-roots":
                    self.send({"jsonrpc": "2.0", "id": mid, "result": {
                        "resultType": "input_required",
                        "inputRequests": {"roots": {"method": "roots/list", "params": {}}},
                        "requestState": "need-roots"}})
                    return
                if "roots" in responses:
                    self.set_roots(responses["roots"].get("roots", []))
            try:
                text = self.tool(params.get("name"), params.get("arguments", {}))
                result = {"content": [{"type": "text", "text": text}]}
            except Exception as e:  # noqa: BLE001 - every failure is a tool error
                result = {"content": [{"type": "text", "text": "Error: %s" % e}], "isError": True}
            self.send({"jsonrpc": "2.0", "id": mid, "result": result})
        elif mid is not None:
            self.send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "Method not found"}})


def main(refresh):
    server = Server(refresh, sys.argv[1:])
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            server.handle(json.loads(line))
        except json.JSONDecodeError:
            server.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})


if __name__ == "__main__":
    main(refresh=False)
