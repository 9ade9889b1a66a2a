"""Serves its files through a prompt, `summarize_file(path)`, but
compares the resolved path with each root as text (`startswith`, no
separator): a sibling such as `proj2` passes for the root `proj`.
`rootguard mcp` must report RG-PREFIX-SIBLING."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doors_server import Server, main  # noqa: E402


def within_flaw(self, real):
    return any(real.startswith(root) for root in self.allowed)


Server.prompt = True
Server.within_flaw = within_flaw
Server.name = "rootguard-prompt-prefix"
main()
