"""Asks roots/list again on notifications/roots/list_changed: `rootguard mcp` must pass it."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import main  # noqa: E402

main(refresh=True)
