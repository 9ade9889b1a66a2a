"""The sound git server: `repo_path` resolved and compared component-wise
with each `--repository`, a `.git` that is not a plain directory of its
own refused, git run on the git directory it names with
`GIT_CEILING_DIRECTORIES`, no system or global configuration and
`core.fsmonitor`, hooks and external diffs off; `git_add` refuses files
outside the repository, and `write_file` refuses `.git`. `rootguard mcp`
must find nothing, every git door attacked."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from git_server import Server, main  # noqa: E402

Server.check = "resolved"
Server.hardened = True
Server.writer = True
Server.name = "rootguard-git-sound"
main()
