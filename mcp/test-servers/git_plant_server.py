"""A git server whose boundary holds (`repo_path` resolved and compared
component-wise), beside a `write_file` tool that writes anywhere inside
the repository, `.git` included, and git run as it comes (`git -C`).
Through the file tool a `.git` file leading out, or a `.git/config`
whose `core.fsmonitor` or `diff.external` runs a command, is planted.
`rootguard mcp` must report RG-GIT-GITDIR-FOLLOWED (the planted `.git`
file, and those it lays) and RG-GIT-HOOK-PLANTED."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from git_server import Server, main  # noqa: E402

Server.check = "resolved"
Server.writer = True
Server.name = "rootguard-git-plant"
main()
