"""A git server that judges `repo_path`, and the files `git_add`
stages, as text: normalized, compared component-wise with the
repository, links not followed. `git_add` stages each file by
`git hash-object -w` of its path. `rootguard mcp` must report
RG-LINK-FOLLOWED (a repository, and a file, reached through a link
inside the root) and RG-GIT-GITDIR-FOLLOWED (a `.git` file or link
inside the root leads git out)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from git_server import Server, main  # noqa: E402

Server.check = "lexical"
Server.stage_by_hash = True
Server.name = "rootguard-git-lexical"
main()
