"""Takes its directories only from the environment: RG_ALLOWED_DIRS,
joined by `,` (as code-editor-mcp's CODE_EDIT_ALLOWED_DIRECTORIES is);
arguments are a usage error. Sound otherwise (mini_fs_server.py)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import main  # noqa: E402

joined = os.environ.get("RG_ALLOWED_DIRS", "")
if sys.argv[1:] or not joined:
    sys.exit("usage: RG_ALLOWED_DIRS=DIR[,DIR...] env_server.py (no arguments)")
main(refresh=True, dirs=joined.split(","))
