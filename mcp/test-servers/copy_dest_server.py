"""As tool_doors_server.py, but `copy_note` checks only its source:
`to` is written as given, so a copy of a file inside the root lands
outside it. `rootguard mcp` must report a write escape through
`tools/call:copy_note`."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doors_server import Server, main  # noqa: E402

Server.tools = True
Server.copy_checks_dest = False
Server.name = "rootguard-copy-dest"
main()
