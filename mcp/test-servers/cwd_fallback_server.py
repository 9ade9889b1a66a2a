"""Falls back to its working directory when the client's roots/list
fails: an empty list, a JSON-RPC error, or no answer within its own
timeout (1 s, counted from its request to the next tools/call). A late
answer still replaces the fallback. `rootguard mcp` must report
RG-CWD-FALLBACK. fail_closed_server.py is the same server falling back
to its command-line directories instead. Sound otherwise."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402

ROOTS_TIMEOUT = 1.0


class Fallback(Server):
    def __init__(self, refresh, dirs):
        super().__init__(refresh, dirs)
        self.configured = list(self.allowed)
        self.asked_at = None

    def fallback(self):
        """What a failed roots/list leaves granted."""
        return [os.path.realpath(os.getcwd())]

    def ask_roots(self):
        super().ask_roots()
        self.asked_at = time.monotonic()

    def handle(self, msg):
        mid = msg.get("id")
        if msg.get("method") is None and mid in self.pending:
            self.asked_at = None
            if "error" in msg or not msg.get("result", {}).get("roots"):
                self.pending.pop(mid)
                self.allowed = self.fallback()
                return
        if msg.get("method") == "tools/call" and self.asked_at is not None:
            left = ROOTS_TIMEOUT - (time.monotonic() - self.asked_at)
            if left > 0:
                time.sleep(left)
            self.asked_at = None
            self.allowed = self.fallback()
        super().handle(msg)


if __name__ == "__main__":
    main(refresh=True, cls=Fallback)
