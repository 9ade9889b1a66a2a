"""Grants a built-in default allow-list beside the directories it is
given, as fast-filesystem-mcp does: its HOME, its working directory,
/tmp, /var/tmp and /dev/shm, kept when dirs come on the command line or from
roots/list. `rootguard mcp` must report RG-DEFAULT-GRANT once, and fold
into it the escapes it explains. Sound otherwise (mini_fs_server.py)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


def defaults():
    return [os.path.realpath(d) for d in (os.environ.get("HOME", "/"), os.getcwd(), "/tmp", "/var/tmp", "/dev/shm")]


class DefaultGrant(Server):
    def __init__(self, refresh, dirs):
        super().__init__(refresh, dirs)
        self.allowed += defaults()

    def set_roots(self, roots):
        super().set_roots(roots)
        self.allowed += defaults()


main(refresh=True, cls=DefaultGrant)
