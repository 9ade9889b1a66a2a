"""Serves its files as resources only, through the URI template
`file:///{+path}`: the variable is percent-decoded once, resolved with
realpath and compared with each root component by component. Sound:
`rootguard mcp` must find nothing, and attack every door."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doors_server import Server, main  # noqa: E402

Server.template = True
Server.name = "rootguard-template"
main()
