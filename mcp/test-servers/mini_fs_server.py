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

The flawed servers (prefix_server.py, lexical_server.py,
dangling_write_server.py, trimming_server.py, casefold_server.py) set
`Server.flaw` to a judge with one classic bug each.

It speaks the 2025-11-25 revision; modern_server.py and dual_server.py make
it speak the stateless 2026-07-28 one too (see `Server.eras`).
"""

import hashlib
import hmac
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
    # The eras it speaks; with "modern" among them the first message fixes
    # the era for the process, as Python SDK 2.x servers do: a request
    # carrying the 2026-07-28 `_meta` makes it modern, anything else legacy
    # (or, for a modern-only server, an UnsupportedProtocolVersion error).
    eras = ("legacy",)

    def __init__(self, refresh, dirs):
        self.refresh = refresh
        self.configured = [os.path.abspath(d) for d in dirs]
        self.allowed = list(self.configured)
        self.era = None
        # Signs requestState: a state the server did not issue for this very call is refused.
        self.key = os.urandom(16)
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
            if path is not None:
                allowed.append(path)
        self.allowed = allowed

    @property
    def allowed(self):
        """The roots resolved now: a root is resolved when it is used, so a
        swapped root link or a replaced root directory counts as it is now."""
        return [os.path.realpath(p) for p in self.roots if os.path.isdir(p)]

    @allowed.setter
    def allowed(self, paths):
        self.roots = list(paths)

    # A flawed server built on this one sets this to its own judge (one
    # classic bug each): flaw(self, path) -> the path the operation opens,
    # or None to refuse.
    flaw = None

    def inside(self, path):
        if not os.path.isabs(path):
            return None
        if self.flaw is not None:
            return self.flaw(path)
        return self.sound(path)

    def sound(self, path):
        # realpath follows every link, a dangling final one too: where the
        # operation would land.
        real = os.path.realpath(path)
        return real if self.within(real) else None

    def within(self, real):
        """Whether a resolved path is a root or beneath one, whole components compared."""
        return any(real == root or real.startswith(root.rstrip("/") + "/") for root in self.allowed)

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
        if self.era is None and method is not None and "modern" in self.eras:
            meta = (msg.get("params") or {}).get("_meta") or {}
            if META_VERSION in meta:
                self.era = "modern"
            elif "legacy" in self.eras:
                self.era = "legacy"
        if self.era == "modern":
            return self.handle_modern(msg)
        if "legacy" not in self.eras:
            if mid is not None:
                self.send({"jsonrpc": "2.0", "id": mid, "error": unsupported(msg)})
            return
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
            self.send({"jsonrpc": "2.0", "id": mid, "result": self.run_tool(params)})
        elif mid is not None:
            self.send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "Method not found"}})

    def state_for(self, params):
        """The requestState of an input_required answer to this call: a MAC
        over the tool and its arguments."""
        call = json.dumps([params.get("name"), params.get("arguments", {})], sort_keys=True)
        return hmac.new(self.key, call.encode(), hashlib.sha256).hexdigest()

    def handle_modern(self, msg):
        """Revision 2026-07-28: every request stands alone, carries `_meta`,
        and gets roots only through an input_required round trip."""
        method = msg.get("method")
        mid = msg.get("id")
        if mid is None:
            return
        params = msg.get("params") or {}
        meta = params.get("_meta") or {}
        if META_VERSION not in meta or META_CAPS not in meta:
            self.send({"jsonrpc": "2.0", "id": mid, "error": {
                "code": -32602, "message": "missing _meta %s or %s" % (META_VERSION, META_CAPS)}})
            return
        if meta[META_VERSION] != MODERN:
            self.send({"jsonrpc": "2.0", "id": mid, "error": unsupported(msg)})
            return
        info = {META_SERVER_INFO: {"name": self.NAME, "version": "0.1.0"}}
        if method == "server/discover":
            self.send({"jsonrpc": "2.0", "id": mid, "result": {
                "resultType": "complete", "supportedVersions": [MODERN],
                "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "private", "_meta": info}})
        elif method == "tools/list":
            self.send({"jsonrpc": "2.0", "id": mid, "result": {
                "resultType": "complete", "tools": self.TOOLS, "ttlMs": 0, "cacheScope": "private",
                "_meta": info}})
        elif method == "tools/call":
            result = self.modern_call(params, "roots" in meta[META_CAPS])
            result.setdefault("resultType", "complete")
            self.send({"jsonrpc": "2.0", "id": mid, "result": result})
        elif method == "initialize":
            self.send({"jsonrpc": "2.0", "id": mid, "error": unsupported(msg)})
        else:
            self.send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "Method not found"}})

    def modern_call(self, params, client_has_roots):
        """One tools/call judged by this request's roots alone: the ones in
        its inputResponses when the client declared roots (asked for first),
        else the directories on the command line."""
        self.allowed = list(self.configured)
        if client_has_roots:
            responses = params.get("inputResponses") or {}
            state = params.get("requestState")
            if "roots" not in responses or not (
                    isinstance(state, str) and hmac.compare_digest(state, self.state_for(params))):
                return {"resultType": "input_required",
                        "inputRequests": {"roots": {"method": "roots/list", "params": {}}},
                        "requestState": self.state_for(params)}
            self.set_roots(responses["roots"].get("roots", []))
        return self.run_tool(params)

    def run_tool(self, params):
        """The result of a tools/call under the allowed directories now."""
        try:
            text = self.tool(params.get("name"), params.get("arguments", {}))
            return {"content": [{"type": "text", "text": text}]}
        except Exception as e:  # noqa: BLE001 - every failure is a tool error
            return {"content": [{"type": "text", "text": "Error: %s" % e}], "isError": True}

    NAME = "rootguard-mini-fs"


MODERN = "2026-07-28"
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"


def unsupported(msg):
    """UnsupportedProtocolVersion (-32022) for a request of another revision."""
    params = msg.get("params") or {}
    requested = (params.get("_meta") or {}).get(META_VERSION) or params.get("protocolVersion") or "none"
    return {"code": -32022, "message": "Unsupported protocol version",
            "data": {"supported": [MODERN], "requested": requested}}


def main(refresh, dirs=None, cls=Server):
    """Serves stdio as a `cls`; the allowed directories are `dirs`, else the arguments."""
    server = cls(refresh, sys.argv[1:] if dirs is None else dirs)
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
