"""Serves its files through the URI template `file:///{+path}`, but
checks the variable as matched and percent-decodes it only after the
containment check (the `file://documents/..%2F..%2Fsecret` bug): an
encoded `..` passes the check as a name and climbs out when the file is
opened. `rootguard mcp` must report RG-PERCENT-DECODED-PATH."""

import os
import sys
from urllib.parse import unquote

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doors_server import Server, main  # noqa: E402


def read_flaw(self, value):
    real = os.path.realpath("/" + value)
    if not self.within(real):
        return None
    return os.path.realpath(unquote(real))


Server.template = True
Server.read_flaw = read_flaw
Server.name = "rootguard-template-decode"
main()
