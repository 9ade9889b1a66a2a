"""Takes its path arguments nested, as some real servers do: `read_file`
wants `{"params": {"path": ...}}` and `list_directory` wants
`{"requests": [{"path": ...}]}` (a `$ref` into `$defs`). Its check is the
text-prefix one of prefix_server.py, so `rootguard mcp` finds
RG-PREFIX-SIBLING only if it fills the nested shapes."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


def flaw(self, path):
    real = os.path.realpath(path)
    return real if any(real.startswith(root) for root in self.allowed) else None


PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}

TOOLS = [
    {"name": "read_file", "description": "Read a file",
     "inputSchema": {"type": "object", "properties": {"params": PATH}, "required": ["params"]}},
    {"name": "list_directory", "description": "List directories",
     "inputSchema": {"type": "object", "$defs": {"Request": PATH},
                     "properties": {"requests": {"type": "array", "items": {"$ref": "#/$defs/Request"}}},
                     "required": ["requests"]}},
]

flat_tool = Server.tool


def nested_tool(self, name, args):
    if name == "read_file":
        return flat_tool(self, "read_text_file", args.get("params", {}))
    if name == "list_directory":
        requests = args.get("requests") or [{}]
        return "\n".join(flat_tool(self, "list_directory", r) for r in requests)
    raise ValueError("unknown tool %s" % name)


Server.flaw = flaw
Server.TOOLS = TOOLS
Server.tool = nested_tool
main(refresh=True)
