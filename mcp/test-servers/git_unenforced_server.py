"""A git server whose repository option is not enforced: started with
`--repository DIR`, its tools open whatever repository `repo_path`
names (the boundary mcp-server-git did not enforce before it gained
`validate_repo_path`). `rootguard mcp` must report RG-GIT-REPO-BOUNDARY
(a plain outside repository read and changed) and RG-GIT-GITDIR-FOLLOWED
(git follows a `.git` file or link out, as it always does)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from git_server import Server, main  # noqa: E402

Server.check = "none"
Server.name = "rootguard-git-unenforced"
main()
