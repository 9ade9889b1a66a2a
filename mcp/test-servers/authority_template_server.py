"""Serves its files through the URI template `file://{+path}`, as
@modelcontextprotocol/server-filesystem 2.x does: the variable is the
whole path, its `/` first, right after `file://`. It checks the variable
as matched and percent-decodes it only after the containment check, so
an encoded `..` climbs out. A value without its leading `/` is read as a
host and refused, so `rootguard mcp` reaches the flaw only by putting the
root's whole path, `/` first, in the variable; it must report
RG-PERCENT-DECODED-PATH."""

import os
import re
import sys
from urllib.parse import unquote

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doors_server import Server, main  # noqa: E402


def read_flaw(self, value):
    if not value.startswith("/"):
        return None
    real = os.path.realpath(value)
    if not self.within(real):
        return None
    return os.path.realpath(unquote(real))


Server.template = True
Server.template_text = "file://{+path}"
Server.template_re = re.compile(r"^file://(?P<path>/.+)$")
Server.read_flaw = read_flaw
Server.name = "rootguard-authority-template"
main()
