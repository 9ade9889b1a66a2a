"""A small MCP server of rootguard's own that serves files through the
doors other than tools, for testing `rootguard mcp`'s door attacks.

Stdlib only; newline-delimited JSON-RPC 2.0 over stdio, revision
2025-11-25. Its allowed directories are the ones on its command line
until the client, if it declares the `roots` capability, answers a
`roots/list` request. It lists no tools. What it offers is set by the
servers built on it:

- `Server.template`: a URI template of `resources/templates/list`,
  `file:///{+path}`; `resources/read` of a URI that matches it reads the
  file (template_server.py, template_decode_server.py);
- `Server.prompt`: a prompt `summarize_file` whose argument `path` (an
  absolute path, a file URI, or a path relative to the first root) names
  the file it quotes (prompt_server.py, prompt_prefix_server.py);
- `Server.tools`: two tools whose names do not say "file":
  `fetch_document({"doc": {"location": URI}})` quotes the file a file URI
  names, and `copy_note({"from": PATH, "to": PATH})` copies a file
  (tool_doors_server.py, uri_arg_server.py, copy_dest_server.py);
- `Server.read_flaw`, `Server.within_flaw`, `Server.copy_checks_dest`:
  one classic bug each.
"""

import json
import os
import re
import sys
from urllib.parse import unquote

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import root_path  # noqa: E402

TEMPLATE = "file:///{+path}"
# How the template is matched: `{+path}` takes everything after `file:///`.
TEMPLATE_RE = re.compile(r"^file:///(?P<path>.+)$")


class Server:
    template = False
    # The template listed and how a URI matches it (a subclass may list
    # `file://{+path}`, whose variable is the whole path, `/` first).
    template_text = TEMPLATE
    template_re = TEMPLATE_RE
    prompt = False
    tools = False
    # copy_dest_server.py clears this: whether copy_note checks `to` too.
    copy_checks_dest = True
    name = "rootguard-doors"
    # template_decode_server.py sets this: the path a matched variable
    # opens, or None to refuse (the sound one decodes, then checks).
    read_flaw = None
    # prompt_prefix_server.py sets this: whether a resolved path is inside.
    within_flaw = None

    def __init__(self, dirs):
        self.allowed = [os.path.realpath(d) for d in dirs]
        self.client_has_roots = False
        self.next_id = 0

    def send(self, message):
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    def reply(self, mid, result):
        self.send({"jsonrpc": "2.0", "id": mid, "result": result})

    def error(self, mid, code, message):
        self.send({"jsonrpc": "2.0", "id": mid, "error": {"code": code, "message": message}})

    def within(self, real):
        """Whether a resolved path is a root or beneath one, whole components compared."""
        if self.within_flaw is not None:
            return self.within_flaw(real)
        return any(real == root or real.startswith(root.rstrip("/") + "/") for root in self.allowed)

    def open_variable(self, value):
        """The file the template's `path` opens: decoded, resolved, checked."""
        if self.read_flaw is not None:
            return self.read_flaw(value)
        real = os.path.realpath("/" + unquote(value).lstrip("/"))
        return real if self.within(real) else None

    def read_resource(self, mid, uri):
        match = self.template_re.match(uri) if self.template else None
        if match is None:
            self.error(mid, -32002, "Resource not found: %s" % uri)
            return
        real = self.open_variable(match.group("path"))
        if real is None:
            self.error(mid, -32603, "Access denied: %s is outside the allowed directories" % uri)
            return
        try:
            with open(real, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            self.error(mid, -32603, "Cannot read %s: %s" % (uri, e.strerror))
            return
        self.reply(mid, {"contents": [{"uri": uri, "mimeType": "text/plain", "text": text}]})

    def prompt_path(self, value):
        """The resolved file a prompt argument names, or None when outside."""
        return self.tool_path(value)

    def get_prompt(self, mid, params):
        if not self.prompt or params.get("name") != "summarize_file":
            self.error(mid, -32602, "Unknown prompt: %s" % params.get("name"))
            return
        value = (params.get("arguments") or {}).get("path")
        if not isinstance(value, str):
            self.error(mid, -32602, "Invalid params: the argument path is required")
            return
        real = self.prompt_path(value)
        if real is None:
            self.error(mid, -32603, "Access denied: %s is outside the allowed directories" % value)
            return
        try:
            with open(real, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            self.error(mid, -32603, "Cannot read %s: %s" % (value, e.strerror))
            return
        self.reply(mid, {"description": "Summarize a file", "messages": [{
            "role": "user", "content": {"type": "text", "text": "Summarize this file:\n" + text}}]})

    def tool_path(self, value, uri=False):
        """The resolved path an argument names (an absolute path, a file
        URI, or a path relative to the first root), or None when outside."""
        if uri or value[:5].lower() == "file:":
            value = root_path(value)
            if value is None:
                return None
        elif not os.path.isabs(value):
            if not self.allowed:
                return None
            value = os.path.join(self.allowed[0], value)
        real = os.path.realpath(value)
        return real if self.within(real) else None

    def text_result(self, mid, text, error=False):
        self.reply(mid, {"content": [{"type": "text", "text": text}], "isError": error})

    def call_tool(self, mid, params):
        name, args = params.get("name"), params.get("arguments") or {}
        if name == "fetch_document":
            location = (args.get("doc") or {}).get("location")
            if not isinstance(location, str):
                self.error(mid, -32602, "Invalid params: doc.location is required")
                return
            real = self.tool_path(location, uri=True)
            if real is None:
                self.text_result(mid, "Access denied: %s" % location, True)
                return
            try:
                with open(real, encoding="utf-8", errors="replace") as f:
                    self.text_result(mid, f.read())
            except OSError as e:
                self.text_result(mid, "Cannot read %s: %s" % (location, e.strerror), True)
        elif name == "copy_note":
            src, dst = args.get("from"), args.get("to")
            if not isinstance(src, str) or not isinstance(dst, str):
                self.error(mid, -32602, "Invalid params: from and to are required")
                return
            real_src = self.tool_path(src)
            if self.copy_checks_dest:
                real_dst = self.tool_path(dst)
            else:
                # BUG: only the source is checked; the destination is taken as given.
                real_dst = dst if os.path.isabs(dst) else os.path.join(self.allowed[0], dst)
            if real_src is None or real_dst is None:
                self.text_result(mid, "Access denied", True)
                return
            try:
                with open(real_src, "rb") as f:
                    data = f.read()
                with open(real_dst, "wb") as f:
                    f.write(data)
                self.text_result(mid, "Copied %d bytes" % len(data))
            except OSError as e:
                self.text_result(mid, "Cannot copy: %s" % e.strerror, True)
        else:
            self.error(mid, -32602, "Unknown tool: %s" % name)

    def tool_list(self):
        if not self.tools:
            return []
        return [
            {"name": "fetch_document", "description": "Quote a document",
             "inputSchema": {"type": "object", "required": ["doc"], "properties": {
                 "doc": {"type": "object", "required": ["location"], "properties": {
                     "location": {"type": "string", "format": "uri",
                                  "description": "The document's file:// URI"},
                     "lines": {"type": "integer"}}}}}},
            {"name": "copy_note", "description": "Copy a note",
             "inputSchema": {"type": "object", "required": ["from", "to"], "properties": {
                 "from": {"type": "string"}, "to": {"type": "string"}}}},
        ]

    def resources(self):
        out = []
        for root in self.allowed:
            for entry in sorted(os.listdir(root)) if os.path.isdir(root) else []:
                path = os.path.join(root, entry)
                if os.path.isfile(path):
                    out.append({"uri": "file://" + path, "name": entry, "mimeType": "text/plain"})
        return out

    def handle(self, msg):
        method, mid = msg.get("method"), msg.get("id")
        params = msg.get("params") or {}
        if method is None:
            if str(mid).startswith("roots-") and "result" in msg:
                allowed = []
                for root in msg["result"].get("roots", []):
                    path = root_path(root.get("uri", ""))
                    if path is not None and os.path.isdir(path):
                        allowed.append(os.path.realpath(path))
                self.allowed = allowed
            return
        if method == "initialize":
            self.client_has_roots = "roots" in params.get("capabilities", {})
            caps = {}
            if self.template:
                caps["resources"] = {}
            if self.prompt:
                caps["prompts"] = {}
            if self.tools:
                caps["tools"] = {}
            self.reply(mid, {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                             "capabilities": caps,
                             "serverInfo": {"name": self.name, "version": "0.1.0"}})
        elif method == "notifications/initialized":
            if self.client_has_roots:
                self.next_id += 1
                self.send({"jsonrpc": "2.0", "id": "roots-%d" % self.next_id, "method": "roots/list"})
        elif method == "ping":
            self.reply(mid, {})
        elif method == "tools/list":
            self.reply(mid, {"tools": self.tool_list()})
        elif method == "tools/call" and self.tools:
            self.call_tool(mid, params)
        elif method == "resources/list" and self.template:
            self.reply(mid, {"resources": self.resources()})
        elif method == "resources/templates/list" and self.template:
            self.reply(mid, {"resourceTemplates": [{
                "uriTemplate": self.template_text, "name": "file", "mimeType": "text/plain"}]})
        elif method == "resources/read" and self.template:
            uri = params.get("uri")
            if not isinstance(uri, str):
                self.error(mid, -32602, "Invalid params: uri is required")
            else:
                self.read_resource(mid, uri)
        elif method == "prompts/list" and self.prompt:
            self.reply(mid, {"prompts": [{
                "name": "summarize_file", "description": "Summarize a file",
                "arguments": [{"name": "path", "description": "The file", "required": True}]}]})
        elif method == "prompts/get" and self.prompt:
            self.get_prompt(mid, params)
        elif mid is not None:
            self.error(mid, -32601, "Method not found")


def main(cls=Server):
    """Serves stdio as a `cls`; the allowed directories are the arguments."""
    server = cls(sys.argv[1:])
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            server.handle(json.loads(line))
        except json.JSONDecodeError:
            server.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})


if __name__ == "__main__":
    main()
