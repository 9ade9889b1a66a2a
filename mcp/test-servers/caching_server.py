"""Caches the first roots/list answer on purpose and ignores
notifications/roots/list_changed: `rootguard mcp` must catch it."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import main  # noqa: E402

main(refresh=False)
