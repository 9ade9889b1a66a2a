"""Speaks revision 2026-07-28 only: no initialize (it gets
UnsupportedProtocolVersion, -32022), `_meta` required on every request,
roots asked through an input_required result on every tools/call and
judged per request, requestState a MAC over the call. Sound: must pass."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402

Server.eras = ("modern",)
Server.NAME = "rootguard-modern-fs"
main(refresh=True)
