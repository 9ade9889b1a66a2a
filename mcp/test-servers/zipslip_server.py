"""An archive server whose extractor trusts each entry's name: an entry
named `../../out/x` or `/…/out/x`, or a link entry followed by a file
beneath it, is written outside the allowed directory, although the
archive and the destination were checked. `rootguard mcp` must report
RG-ZIP-SLIP."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from archive_server import Server, main  # noqa: E402

Server.sound = False
Server.name = "rootguard-zipslip"
main()
