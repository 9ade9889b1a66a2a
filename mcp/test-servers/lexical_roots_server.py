"""Judges paths and roots as text (`normpath`, no link resolved, a root
taken as written) and opens the path as given, as mcp-cli does: a link
in the root leads anywhere, swapped or not. `rootguard mcp` must report
RG-LINK-FOLLOWED, and must not take the escape through the swapped root
link for a resolution kept across the swap (RG-TOCTOU)."""

import os
import posixpath
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


class LexicalRoots(Server):
    @property
    def allowed(self):
        return [posixpath.normpath(os.path.abspath(p)) for p in self.roots]

    @allowed.setter
    def allowed(self, paths):
        self.roots = list(paths)

    def flaw(self, path):
        normal = posixpath.normpath(path)
        return path if self.within(normal) else None


main(refresh=True, cls=LexicalRoots)
