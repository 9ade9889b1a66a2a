"""Serves its files only through two tools whose names do not say
"file": `fetch_document` takes a file URI nested in an object, and
`copy_note` takes two paths. Both resolve every path and compare whole
components with each root. `rootguard mcp` must find nothing."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doors_server import Server, main  # noqa: E402

Server.tools = True
Server.name = "rootguard-tool-doors"
main()
