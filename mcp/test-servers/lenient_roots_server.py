"""Reads root URIs leniently (query and fragment dropped, any host
accepted): `rootguard mcp` must report root escapes."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402

Server.lenient = True
main(refresh=True)
