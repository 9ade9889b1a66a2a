"""Asks for the client's roots inside every tools/call, the way revision
2026-07-28 does (an input_required result; the client retries with
inputResponses), instead of sending roots/list itself."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402

Server.mrtr = True
main(refresh=True)
