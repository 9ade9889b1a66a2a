"""A git server whose boundary holds (`repo_path` resolved, a `.git` of
its own required, git run hardened) but which passes each revision and
branch name to git as it is: `git_diff` with the target `--output=FILE`
makes git write FILE outside the repository. `rootguard mcp` must report
RG-GIT-OPTION-INJECTION."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from git_server import Server, main  # noqa: E402

Server.check = "resolved"
Server.hardened = True
Server.guard_options = False
Server.name = "rootguard-git-option"
main()
