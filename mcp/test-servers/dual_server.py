"""Speaks both revisions, the era fixed by the first message as a Python
SDK 2.x server does: a `server/discover` carrying `_meta` makes it a
2026-07-28 server (roots through input_required, per request), anything
else a 2025-11-25 one that refreshes its roots. Sound: must pass in both."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402

Server.eras = ("legacy", "modern")
Server.NAME = "rootguard-dual-fs"
main(refresh=True)
