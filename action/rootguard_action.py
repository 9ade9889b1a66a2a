#!/usr/bin/env python3
"""The steps of rootguard's GitHub Action (action.yml at the repository root).

    python3 action/rootguard_action.py key|install|adapter|run|verdict

Each step reads the action's inputs from INPUT_<NAME> variables (action.yml
maps them in each step's `env:`, so no input is ever pasted into a script)
and the runner's GITHUB_* and RUNNER_* variables, and writes its outputs to
$GITHUB_OUTPUT. action/test-action.sh runs these same steps on this machine.
Standard library only: the runner's python3 is enough.
"""

import hashlib
import json
import os
import re
import shlex
import subprocess
import sys

# The report's tail that goes into the step summary (GitHub takes 1 MiB a step).
SUMMARY_REPORT_BYTES = 60_000
SUMMARY_ROWS = 50
# Directories no build reads, left out of the cache key.
UNBUILT = {".git", "target", "node_modules", "__pycache__"}


class ActionError(Exception):
    """An input or the machine is not what the action needs; the message says what to do."""


def action_path() -> str:
    return os.environ.get("GITHUB_ACTION_PATH") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def given(name: str) -> str:
    """The input `name` (as action.yml spells it), stripped; '' when not given."""
    return os.environ.get("INPUT_" + name.upper().replace("-", "_"), "").strip()


def runner_file(variable: str) -> str:
    path = os.environ.get(variable)
    if not path:
        raise ActionError(f"${variable} is not set: run this as a step of the action (or set it, as action/test-action.sh does)")
    return path


def set_output(name: str, value: str) -> None:
    with open(runner_file("GITHUB_OUTPUT"), "a", encoding="utf-8") as out:
        out.write(f"{name}={value}\n")


def step_summary(markdown: str) -> None:
    with open(runner_file("GITHUB_STEP_SUMMARY"), "a", encoding="utf-8") as out:
        out.write(markdown)


def words(name: str) -> list:
    """The input `name` split as a POSIX shell splits words (quotes kept together)."""
    try:
        return shlex.split(given(name))
    except ValueError as e:
        raise ActionError(f"input {name} is not a list of shell words ({e}): {given(name)!r}") from None


# --- key: what the cache holds ------------------------------------------------


def key() -> None:
    """Outputs `key` (rootguard's sources, hashed) and `root` (where it is installed)."""
    top = action_path()
    digest = hashlib.sha256()
    for directory, subdirs, files in os.walk(top):
        subdirs[:] = sorted(d for d in subdirs if d not in UNBUILT)
        for name in sorted(files):
            path = os.path.join(directory, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            digest.update(os.path.relpath(path, top).encode("utf-8", "surrogateescape") + b"\0")
            with open(path, "rb") as f:
                digest.update(hashlib.sha256(f.read()).digest())
    set_output("key", f"rootguard-{digest.hexdigest()[:24]}")
    set_output("root", os.path.join(runner_file("RUNNER_TEMP"), "rootguard-install"))


# --- install: cargo install, unless the cache brought it back -------------------


def install() -> None:
    """Installs rootguard from the action's own source into $INPUT_ROOT; outputs `bin`."""
    root = given("root") or os.path.join(runner_file("RUNNER_TEMP"), "rootguard-install")
    binary = os.path.join(root, "bin", "rootguard")
    if os.access(binary, os.X_OK) and subprocess.run([binary, "--version"], capture_output=True).returncode == 0:
        print(f"rootguard: {binary} is there already (from the cache)")
    else:
        command = ["cargo", "install", "--locked", "--path", os.path.join(action_path(), "cli"), "--root", root]
        print("+ " + shlex.join(command), flush=True)
        try:
            status = subprocess.run(command).returncode
        except FileNotFoundError:
            raise ActionError("cargo is not on PATH: add a Rust toolchain first (`- uses: dtolnay/rust-toolchain@stable`)") from None
        if status != 0:
            raise ActionError(f"cargo install of rootguard failed (exit {status}); its output is above")
    with open(runner_file("GITHUB_PATH"), "a", encoding="utf-8") as path:
        path.write(os.path.join(root, "bin") + "\n")
    set_output("bin", binary)


# --- adapter: the protocol adapter a checker imports -------------------------------


def adapter() -> None:
    """Installs the protocol adapter named by $INPUT_ADAPTER (python or node), if any."""
    which = given("adapter")
    source = os.path.join(action_path(), "adapters", which)
    if which == "":
        return
    if which == "python":
        command = ["python3", "-m", "pip", "install", "--disable-pip-version-check", "--no-input", source]
        fix = "give the job a Python whose pip may install (actions/setup-python, or a venv on PATH)"
    elif which == "node":
        workdir = given("working-directory") or "."
        command = ["npm", "install", "--prefix", workdir, "--no-save", "--no-audit", "--no-fund", "--install-links", source]
        fix = "give the job Node and npm (actions/setup-node)"
    else:
        raise ActionError(f"input adapter is {which!r}: give python, node, or nothing")
    print("+ " + shlex.join(command), flush=True)
    try:
        status = subprocess.run(command).returncode
    except FileNotFoundError:
        status = None
    if status != 0:
        raise ActionError(f"the {which} adapter did not install ({'not found' if status is None else f'exit {status}'}): {fix}")


# --- run: rootguard itself --------------------------------------------------------


def flags_of(binary: str, command: str) -> str:
    """`rootguard COMMAND --help`, to tell which flags this build has."""
    return subprocess.run([binary, command, "--help"], capture_output=True, text=True).stdout


def has_flag(help_text: str, flag: str) -> bool:
    """Whether `--help` lists `flag` as an option (a line of its own, not a mention in prose)."""
    return re.search(rf"(?m)^\s*(-\w, )?{re.escape(flag)}\b", help_text) is not None


def rootguard_command(binary: str) -> list:
    command = given("command") or "vet"
    if command not in ("vet", "mcp"):
        raise ActionError(f"input command is {command!r}: give vet (a checker) or mcp (a live MCP server)")
    checker = words("checker")
    if not checker:
        raise ActionError("input checker is empty: give the command that starts your checker (vet) or server (mcp), "
                          "e.g. `python3 rootguard_checker.py`")
    help_text = flags_of(binary, command)
    argv = [binary, command]
    for name in ("budget", "seed"):
        value = given(name)
        if value and not value.isdigit():
            raise ActionError(f"input {name} is {value!r}: give a whole number, or nothing")
        if value:
            argv += [f"--{name}", value]
    baseline = given("baseline")
    if baseline:
        argv += ["--baseline", baseline]
    for flag in [a for a in argv[2:] if a.startswith("--")]:
        if not has_flag(help_text, flag):
            raise ActionError(f"this rootguard's `{command}` has no {flag}: leave that input empty"
                              + (" (baselines come with defect IDs, rootguard issue #19)" if flag == "--baseline" else ""))
    argv += ["--sarif", sarif_path(command)]
    return argv + words("args") + ["--"] + checker


def sarif_path(command: str) -> str:
    path = given("sarif") or os.path.join(runner_file("RUNNER_TEMP"), f"rootguard-{command}.sarif")
    return os.path.abspath(os.path.join(given("working-directory") or ".", path))


def run() -> int:
    """Runs rootguard, keeps its SARIF, writes the summary; outputs `exit-code`, `sarif`, `defects`."""
    binary = given("bin") or "rootguard"
    argv = rootguard_command(binary)
    sarif = argv[argv.index("--sarif") + 1]
    if os.path.exists(sarif):
        os.remove(sarif)  # a stale file would pass for this run's
    print("+ " + shlex.join(argv), flush=True)
    printed = bytearray()
    seed = None
    try:
        child = subprocess.Popen(argv, cwd=given("working-directory") or None, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except FileNotFoundError:
        raise ActionError(f"{binary} not found: the install step puts it on PATH") from None
    for line in child.stdout:
        seed = seed or re.search(rb"\bseed (\d+)", line)
        sys.stdout.buffer.write(line)
        sys.stdout.flush()
        printed += line
        del printed[: max(0, len(printed) - SUMMARY_REPORT_BYTES)]
    code = child.wait()
    results = sarif_results(sarif)
    set_output("exit-code", str(code))
    set_output("sarif", sarif if results is not None else "")
    set_output("defects", str(len(results or [])))
    step_summary(summary(argv, code, results, seed and seed.group(1).decode(), printed.decode("utf-8", "replace")))
    # 0 and 1 are verdicts (the verdict step fails the job on 1); anything else is an error here.
    return 0 if code in (0, 1) else code


def sarif_results(path: str):
    """The results of the SARIF file at `path`, or None when there is none."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)["runs"][0]["results"]
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None


def cell(text: str) -> str:
    """`text` fit for one cell of a Markdown table."""
    return text.replace("|", "\\|").replace("\n", " ")


def summary(argv: list, code: int, results, seed, printed: str) -> str:
    """The step summary: the verdict, how to repeat the run, a row per defect, the report itself."""
    command = argv[1]
    verdict = {0: "passed", 1: "failed"}.get(code, f"could not run (exit {code})")
    baseline = given("baseline")
    lines = [f"## rootguard {command}: {verdict}", ""]
    if results is not None:
        if baseline and code == 0:
            lines.append(f"{len(results)} defects, none new since the baseline `{baseline}`.")
        elif baseline:
            lines.append(f"{len(results)} defects, and some are new since the baseline `{baseline}`.")
        else:
            lines.append(f"{len(results)} defects." if results else "No defects.")
    checker = shlex.join(argv[argv.index("--") + 1 :])
    lines += ["", f"- command: `{cell(checker)}`"]
    if seed:
        budget = f" --budget {given('budget')}" if given("budget") else ""
        lines.append(f"- seed: {seed} (`rootguard {command}{budget} --seed {seed} -- {cell(checker)}` repeats the run)")
    if results:
        lines += ["", "| defect | level | what |", "|---|---|---|"]
        for r in results[:SUMMARY_ROWS]:
            text = r.get("message", {}).get("text", "")
            lines.append(f"| `{cell(str(r.get('ruleId', '?')))}` | {r.get('level', '')} | {cell(text)[:500]} |")
        if len(results) > SUMMARY_ROWS:
            lines.append(f"| … | | {len(results) - SUMMARY_ROWS} more in the SARIF file |")
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", printed)), default=0))
    lines += ["", f"<details><summary>rootguard's report</summary>", "", fence + "text", printed.rstrip(), fence, "", "</details>", ""]
    return "\n".join(lines) + "\n"


# --- verdict: the job fails on new defects ---------------------------------------


def verdict() -> int:
    """Fails the step when rootguard found defects (new ones, with a baseline)."""
    code = given("exit-code")
    fail = given("fail-on-defects") or "true"
    if fail not in ("true", "false"):
        raise ActionError(f"input fail-on-defects is {fail!r}: give true or false")
    if code == "1" and fail == "true":
        defects = given("defects") or "some"
        new = " new since the baseline" if given("baseline") else ""
        print(f"::error title=rootguard::{defects} defects{new}: see the job summary and code scanning")
        return 1
    print(f"rootguard: exit {code or '?'}" + (" (fail-on-defects is false)" if code == "1" else ""))
    return 0


STEPS = {"key": key, "install": install, "adapter": adapter, "run": run, "verdict": verdict}


def main(argv: list) -> int:
    if len(argv) != 2 or argv[1] not in STEPS:
        print(f"usage: {argv[0]} {'|'.join(STEPS)}", file=sys.stderr)
        return 2
    try:
        return STEPS[argv[1]]() or 0
    except ActionError as e:
        print(f"::error title=rootguard::{e}")
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
