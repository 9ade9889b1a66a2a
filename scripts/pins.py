#!/usr/bin/env python3
"""The pinned packages of testsupport/packages.toml against their registries.

    scripts/pins.py check     # each pin beside the registry's newest release
    scripts/pins.py update    # move every pin to the registry's newest release

`check` prints a Markdown table (for a workflow's step summary) and exits 0.
`update` rewrites testsupport/packages.toml in place: an npm package's
`newest` becomes the registry's `latest` tag, added to its `versions` (the
older releases stay, their tests still run on them); every `==` requirement
of a PyPI venv becomes the newest release. The full tier run after it shows
whether the newest releases still behave as the tests record. It is for the
scheduled workflow (.github/workflows/newest-packages.yml), never for a test:
tests ask no registry.

Needs npm (npm view) and the PyPI JSON API (https://pypi.org/pypi/NAME/json,
or $PIP_INDEX_URL's host when it is a PyPI mirror of the same shape).
"""

import json
import os
import re
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

PINS = Path(__file__).resolve().parent.parent / "testsupport" / "packages.toml"


def npm_latest(name):
    out = subprocess.run(
        ["npm", "view", name, "dist-tags.latest", "--fetch-retries=1"],
        capture_output=True, text=True, timeout=120,
    )
    if out.returncode != 0:
        sys.exit(f"pins.py: `npm view {name}` failed: {out.stderr.strip()}")
    return out.stdout.strip()


def pypi_latest(project):
    base = os.environ.get("ROOTGUARD_PYPI_JSON", "https://pypi.org/pypi")
    with urllib.request.urlopen(f"{base}/{project}/json", timeout=60) as answer:
        return json.load(answer)["info"]["version"]


def requirement(spec):
    project, _, version = spec.partition("==")
    if not version:
        sys.exit(f"pins.py: requirement {spec!r} is not pinned with ==")
    return project.strip(), version.strip()


def rows(pins):
    for pin in pins["npm"]:
        yield "npm", pin["name"], pin["newest"], npm_latest(pin["name"])
    seen = set()
    for venv in pins["pypi"]:
        for spec in venv["requirements"]:
            project, version = requirement(spec)
            if (project, version) not in seen:
                seen.add((project, version))
                yield "PyPI", project, version, pypi_latest(project)


def check(pins):
    print("| registry | package | pinned | newest |  |")
    print("|---|---|---|---|---|")
    for registry, name, pinned, newest in rows(pins):
        mark = "same" if pinned == newest else "**newer release**"
        print(f"| {registry} | `{name}` | {pinned} | {newest} | {mark} |")


def update(pins):
    text = PINS.read_text()
    moved = []
    for registry, name, pinned, newest in rows(pins):
        if pinned == newest:
            continue
        moved.append(f"{registry} {name}: {pinned} -> {newest}")
        if registry == "npm":
            block = re.compile(
                r'(name = "' + re.escape(name) + r'"\n(?:#.*\n)*versions = \[)([^\]]*)(\]\nnewest = ")[^"]*(")'
            )
            text, n = block.subn(
                lambda m: f'{m[1]}{m[2]}, "{newest}"{m[3]}{newest}{m[4]}', text
            )
        else:
            text, n = re.subn(
                r'"' + re.escape(name) + r"==" + re.escape(pinned) + r'"',
                f'"{name}=={newest}"',
                text,
            )
        if n == 0:
            sys.exit(f"pins.py: could not find the pin of {name} in {PINS}")
    PINS.write_text(text)
    tomllib.loads(text)  # still a valid file
    print("\n".join(moved) if moved else "every pin is the newest release")


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("check", "update"):
        sys.exit(__doc__)
    pins = tomllib.loads(PINS.read_text())
    {"check": check, "update": update}[sys.argv[1]](pins)


if __name__ == "__main__":
    main()
