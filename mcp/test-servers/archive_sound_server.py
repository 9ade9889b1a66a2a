"""The sound archive server: link entries refused, each entry's target
resolved and refused unless beneath the destination, created with
O_NOFOLLOW | O_EXCL. `rootguard mcp` must find nothing, the archive
tool attacked."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from archive_server import Server, main  # noqa: E402

Server.sound = True
Server.name = "rootguard-archive-sound"
main()
