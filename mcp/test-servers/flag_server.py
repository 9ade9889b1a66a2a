"""Takes its directories only as a repeated flag, `--allow DIR`, as
fast-filesystem-mcp and @agent-infra/mcp-server-filesystem do; a bare
argument is a usage error. Sound otherwise (mini_fs_server.py)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import main  # noqa: E402

dirs = []
args = sys.argv[1:]
while args:
    if args[0] == "--allow" and len(args) > 1:
        dirs.append(args[1])
        args = args[2:]
    else:
        sys.exit("usage: flag_server.py --allow DIR [--allow DIR ...] (got %r)" % args[0])
if not dirs:
    sys.exit("usage: flag_server.py --allow DIR [--allow DIR ...]")
main(refresh=True, dirs=dirs)
