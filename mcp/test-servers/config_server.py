"""Takes its directories only from a JSON config file, key
`allowedDirectories`: $RG_CONFIG if set, else
$HOME/.rootguard-test/config.json (as desktop-commander reads
$HOME/.claude-server-commander/config.json). No file, no start. It also
writes a log beside its config, as real servers do: that must not count
as a change outside the roots. Sound otherwise (mini_fs_server.py)."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import main  # noqa: E402

path = os.environ.get("RG_CONFIG") or os.path.join(os.environ["HOME"], ".rootguard-test", "config.json")
try:
    with open(path, encoding="utf-8") as f:
        dirs = json.load(f)["allowedDirectories"]
except (OSError, ValueError, KeyError) as e:
    sys.exit("config_server.py: no usable config at %s: %s" % (path, e))
with open(os.path.join(os.path.dirname(path), "server.log"), "a", encoding="utf-8") as log:
    log.write("started with %r\n" % dirs)
main(refresh=True, dirs=dirs)
