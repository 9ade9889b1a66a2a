"""A small MCP git server of rootguard's own, for testing `rootguard mcp`'s
git attacks (docs/mcp-doors.md, "Git and archives").

Stdlib and the `git` command; doors_server.py's JSON-RPC over stdio,
revision 2025-11-25. It is started as mcp-server-git is, with
`--repository DIR` (repeatable): the repositories its tools may use. Its
tools have mcp-server-git's names and arguments (`git_status`,
`git_log`, `git_diff_unstaged`, `git_diff_staged`, `git_diff`,
`git_show`, `git_add`, `git_commit`, `git_create_branch`,
`git_checkout`, each taking `repo_path`), and every one refuses a value
starting with `-`, as mcp-server-git's guards do. With
`--require-repository` it refuses to start unless each `--repository`
is a git repository, as mcp-server-git does. What differs between the
servers built on it:

- `Server.check`, how `repo_path` is judged: "none", any repository at
  all (git_unenforced_server.py); "lexical", normalized and compared as
  text with each repository, links not followed (git_lexical_server.py);
  "resolved", realpath and whole components (git_plant_server.py,
  git_sound_server.py);
- `Server.stage_by_hash`: `git_add` stages each file by
  `git hash-object -w` of the path joined to the repository, judged as
  `repo_path` is (git_lexical_server.py), instead of `git add`;
- `Server.hardened`: a `.git` that is not a plain directory is refused,
  git runs on the git directory it names (`--git-dir`, `--work-tree`,
  `GIT_CEILING_DIRECTORIES`) with no system or global configuration and
  the configuration that runs commands turned off, `git_add` refuses a
  file outside the repository, and `write_file` refuses `.git`
  (git_sound_server.py);
- `Server.writer`: a `write_file(path, content)` tool beside the git
  tools, any path inside a repository (git_plant_server.py,
  git_sound_server.py);
- `Server.guard_options` false: values starting with `-` go to git as
  they are, so `--output=FILE` is an option (git_option_server.py).
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doors_server  # noqa: E402


class Server(doors_server.Server):
    """doors_server's JSON-RPC and loop, with git tools of its own; its
    repositories are its `--repository` arguments (roots are not used)."""
    tools = True
    check = "resolved"
    stage_by_hash = False
    hardened = False
    writer = False
    guard_options = True
    name = "rootguard-git"

    def __init__(self, argv):
        super().__init__([])
        repos = repositories(argv)
        if "--require-repository" in argv:
            for repo in repos:
                if not os.path.exists(os.path.join(repo, ".git")):
                    sys.stderr.write("ERROR: %s is not a valid Git repository\n" % repo)
                    sys.exit(1)
        # Without a --repository every repository is refused (the unenforced server takes any).
        self.repos = [os.path.realpath(r) for r in repos]

    @staticmethod
    def beneath(path, root):
        """Whether `path` is `root` or beneath it, whole components compared."""
        return path == root or path.startswith(root.rstrip("/") + "/")

    def judged(self, value, roots, what):
        """`value` (absolute, or relative to the first of `roots`) as this
        server judges it against `roots`: the path it then uses."""
        if not isinstance(value, str) or not value:
            raise ValueError("%s is required" % what)
        if not os.path.isabs(value) and not roots:
            raise PermissionError("%s %s: no repository to resolve it in" % (what, value))
        path = value if os.path.isabs(value) else os.path.join(roots[0], value)
        if self.check == "none":
            return path
        if self.check == "lexical":
            norm = os.path.normpath(path)
            if any(self.beneath(norm, r) for r in roots):
                return norm
        else:
            real = os.path.realpath(path)
            if any(self.beneath(real, r) for r in roots):
                return real
        raise PermissionError("%s %s is outside the allowed repositories" % (what, value))

    def repository(self, value):
        """The repository `repo_path` names, or PermissionError."""
        repo = self.judged(value, self.repos, "repo_path")
        if self.hardened:
            dot = os.path.join(repo, ".git")
            if os.path.islink(dot) or not os.path.isdir(dot):
                raise PermissionError("%s has no .git directory of its own" % value)
        return repo

    def plain(self, value, what):
        """`value`, refused when git would take it as an option."""
        if not isinstance(value, str) or not value:
            raise ValueError("%s is required" % what)
        if self.guard_options and value.startswith("-"):
            raise ValueError("%s %r cannot start with '-'" % (what, value))
        return value

    def git(self, repo, *args):
        """The output of git on `repo`, or RuntimeError with its message."""
        if self.hardened:
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOME": os.environ.get("HOME", "/"),
                "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_CONFIG_GLOBAL": "/dev/null",
                "GIT_CEILING_DIRECTORIES": os.path.dirname(repo),
                "GIT_TERMINAL_PROMPT": "0",
            }
            command = ["git", "--git-dir=" + os.path.join(repo, ".git"), "--work-tree=" + repo,
                       "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"]
        else:
            env = dict(os.environ)
            command = ["git", "-C", repo]
        done = subprocess.run(command + list(args), capture_output=True, text=True, env=env,
                              timeout=20, check=False)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip() or "git failed")
        return done.stdout

    def diff(self, repo, *args):
        extra = ["--no-ext-diff"] if self.hardened else []
        return self.git(repo, "diff", *extra, *args)

    def add(self, repo, files):
        if not isinstance(files, list) or not files:
            raise ValueError("files is required")
        files = [self.plain(f, "file") for f in files]
        if self.stage_by_hash:
            for f in files:
                path = self.judged(f, [repo], "file")
                sha = self.git(repo, "hash-object", "-w", "--", path).strip()
                self.git(repo, "update-index", "--add", "--cacheinfo",
                         "100644,%s,%s" % (sha, os.path.basename(path)))
            return "Files staged"
        if self.hardened:
            for f in files:
                self.judged(f, [repo], "file")
        self.git(repo, "add", "--", *files)
        return "Files staged"

    def run_tool(self, name, args):
        if name == "write_file" and self.writer:
            return self.write_file(args)
        repo = self.repository(args.get("repo_path"))
        if name == "git_status":
            return self.git(repo, "status")
        if name == "git_log":
            count = args.get("max_count", 10)
            return self.git(repo, "log", "--max-count=%d" % int(count), "--format=%H %an%n%B")
        if name == "git_diff_unstaged":
            return self.diff(repo)
        if name == "git_diff_staged":
            return self.diff(repo, "--cached")
        if name == "git_diff":
            return self.diff(repo, self.plain(args.get("target"), "target"))
        if name == "git_show":
            extra = ["--no-ext-diff"] if self.hardened else []
            return self.git(repo, "show", *extra, self.plain(args.get("revision"), "revision"))
        if name == "git_add":
            return self.add(repo, args.get("files"))
        if name == "git_commit":
            message = args.get("message")
            if not isinstance(message, str):
                raise ValueError("message is required")
            return self.git(repo, "commit", "-q", "-m", message)
        if name == "git_create_branch":
            extra = []
            if args.get("base_branch") is not None:
                extra.append(self.plain(args.get("base_branch"), "base_branch"))
            return self.git(repo, "branch", self.plain(args.get("branch_name"), "branch_name"), *extra)
        if name == "git_checkout":
            return self.git(repo, "checkout", "-q", self.plain(args.get("branch_name"), "branch_name"))
        raise KeyError(name)

    def write_file(self, args):
        path = self.judged(args.get("path"), self.repos, "path")
        if self.hardened and any(c.lower() == ".git" for c in path.split("/")):
            raise PermissionError("%s: .git is not written through this tool" % args.get("path"))
        content = args.get("content")
        if not isinstance(content, str):
            raise ValueError("content is required")
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)
        return "Wrote %d bytes" % len(content)

    def tool_list(self):
        repo = {"repo_path": {"type": "string"}}

        def tool(name, description, extra=None, required=()):
            props = dict(repo, **(extra or {}))
            return {"name": name, "description": description, "inputSchema": {
                "type": "object", "properties": props, "required": ["repo_path", *required]}}

        text = {"type": "string"}
        tools = [
            tool("git_status", "Shows the working tree status"),
            tool("git_log", "Shows the commit logs", {"max_count": {"type": "integer", "default": 10}}),
            tool("git_diff_unstaged", "Shows changes in the working directory that are not yet staged"),
            tool("git_diff_staged", "Shows changes that are staged for commit"),
            tool("git_diff", "Shows differences between branches or commits", {"target": text}, ["target"]),
            tool("git_show", "Shows the contents of a commit", {"revision": text}, ["revision"]),
            tool("git_add", "Adds file contents to the staging area",
                 {"files": {"type": "array", "items": text, "minItems": 1}}, ["files"]),
            tool("git_commit", "Records changes to the repository", {"message": text}, ["message"]),
            tool("git_create_branch", "Creates a new branch from an optional base branch",
                 {"branch_name": text, "base_branch": {"anyOf": [text, {"type": "null"}], "default": None}},
                 ["branch_name"]),
            tool("git_checkout", "Switches branches", {"branch_name": text}, ["branch_name"]),
        ]
        if self.writer:
            tools.append({"name": "write_file", "description": "Write a file", "inputSchema": {
                "type": "object", "properties": {"path": text, "content": text},
                "required": ["path", "content"]}})
        return tools

    def call_tool(self, mid, params):
        name, args = params.get("name"), params.get("arguments") or {}
        if name not in [t["name"] for t in self.tool_list()]:
            self.error(mid, -32602, "Unknown tool: %s" % name)
            return
        try:
            text, failed = self.run_tool(name, args), False
        except (ValueError, PermissionError, RuntimeError, OSError, subprocess.SubprocessError) as e:
            text, failed = "Error: %s" % e, True
        self.text_result(mid, text, failed)


def repositories(argv):
    """The DIRs of every `--repository DIR`."""
    out = []
    for i, arg in enumerate(argv):
        if arg == "--repository" and i + 1 < len(argv):
            out.append(argv[i + 1])
        elif arg.startswith("--repository="):
            out.append(arg.split("=", 1)[1])
    return out


def main(cls=Server):
    """Serves stdio as a `cls`, its repositories those of `--repository`
    (none: every repository refused, unless the server takes any)."""
    doors_server.main(cls)


if __name__ == "__main__":
    main()
