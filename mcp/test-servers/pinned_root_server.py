"""Pins each root's directory by descriptor at the first call after the
roots arrive and serves a path beneath a root's spelling beneath that
descriptor: after the root `proj` is renamed `was-proj` and a new `proj`
made, `proj/...` still serves `was-proj` (a stale root `rootguard mcp` must
catch, roots-change-dir-replaced-new). Paths outside a root's spelling are
refused, so `was-proj/...` itself is."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class Pinned(Server):
    NAME = "rootguard-pinned-root"
    pins = None

    def set_roots(self, roots):
        Server.set_roots(self, roots)
        for _, fd in self.pins or []:
            os.close(fd)
        self.pins = None

    def pinned(self, path):
        if self.pins is None:
            self.pins = [(os.path.normpath(r), os.open(r, os.O_RDONLY | os.O_DIRECTORY))
                         for r in self.roots if os.path.isdir(r)]
        for given, fd in self.pins:
            if path == given or path.startswith(given.rstrip("/") + "/"):
                beneath = "/proc/self/fd/%d" % fd
                opened = beneath + path[len(given):]
                real, pin = os.path.realpath(opened), os.path.realpath(beneath)
                return opened if real == pin or real.startswith(pin.rstrip("/") + "/") else None
        return None

    flaw = pinned


main(refresh=True, cls=Pinned)
