"""Asks roots/list even when the client declared no roots capability; on
the -32601 it must get, it keeps the directories on its command line."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402

Server.always_ask = True
main(refresh=True)
