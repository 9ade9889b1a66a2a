"""Checks a path, then opens it by name: the time-of-check-to-time-of-use
gap `rootguard mcp --race` must catch. The check (mini_fs_server.py's
realpath, then a whole-component compare) is sound for a tree that stands
still; the open that follows resolves the name afresh, so a directory
swapped for a link to outside between the two opens outside. Most Node and
Python servers do exactly this.

Between the check and the open it yields for a moment, as an async server
does when it awaits (the reference server awaits `fs.stat` and the event
loop between `validatePath` and `readFile`): without it the gap is a few
microseconds of one Python thread, which a loaded machine widens by
preempting it and an idle one seldom does, so how often the race was won
depended on the machine more than on the server."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class CheckThenOpen(Server):
    def sound(self, path):
        real = super().sound(path)
        time.sleep(0.00005)
        return real


main(refresh=True, cls=CheckThenOpen)
