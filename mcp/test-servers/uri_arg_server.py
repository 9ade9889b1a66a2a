"""As tool_doors_server.py, but compares the resolved path of every
argument with each root as text (`startswith`, no separator): the URI
`file://.../proj2/secret.txt` given to `fetch_document` passes for the
root `proj`. `rootguard mcp` must report RG-PREFIX-SIBLING through
`tools/call:fetch_document`."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doors_server import Server, main  # noqa: E402


def within_flaw(self, real):
    return any(real.startswith(root) for root in self.allowed)


Server.tools = True
Server.within_flaw = within_flaw
Server.name = "rootguard-uri-arg"
main()
