"""Serves its files through a prompt, `summarize_file(path)`: the path
(absolute, a file URI, or relative to the first root) is resolved with
realpath and compared with each root component by component. Sound:
`rootguard mcp` must find nothing, and attack every door."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doors_server import Server, main  # noqa: E402

Server.prompt = True
Server.name = "rootguard-prompt"
main()
