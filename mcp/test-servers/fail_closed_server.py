"""cwd_fallback_server.py's twin that fails closed: when the client's
roots/list fails (empty, an error, late or never) it keeps only the
directories on its command line. `rootguard mcp` must find nothing."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cwd_fallback_server import Fallback  # noqa: E402
from mini_fs_server import main  # noqa: E402


class FailClosed(Fallback):
    def fallback(self):
        return list(self.configured)


main(refresh=True, cls=FailClosed)
