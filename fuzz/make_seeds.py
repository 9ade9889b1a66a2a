#!/usr/bin/env python3
"""Writes the checked-in seed corpora under fuzz/corpus/<target>/ from
hand-written inputs and the bundled scenario and URI files. Run it again
after those files change: `python3 fuzz/make_seeds.py`.

The structured targets (lexical_roots, resolve_model, resolve_kernel) read a
scenario document as it is when the input is one; other bytes decode as an
`Arbitrary` spec of the generators (judge/src/gen/). `lexical` reads
[set, mode, path bytes...] against its pool of root sets
(fuzzing/src/pool.rs)."""
import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MAIN = os.path.dirname(HERE)
CORPUS = os.path.join(HERE, "corpus")

hostile = json.load(open(os.path.join(MAIN, "judge/tests/scenarios/hostile.json")))
by_name = {s["name"]: s for s in hostile["scenarios"]}
vectors = json.load(open(os.path.join(MAIN, "corpus/root-uris.json")))["vectors"]


def doc(*scenarios):
    return json.dumps({"version": 1, "scenarios": list(scenarios)}, ensure_ascii=False, indent=1).encode()


def write(target, data, name=None):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    name = name or hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


# The spec-N and spec-sibling-N seeds of the structured targets are bytes
# that decode to rich specs, checked by a full-tier test that writes them
# when asked (see its doc, `spec_seeds_are_current`):
#   ROOTGUARD_WRITE_SEEDS=1 cargo test --release -p rootguard-fuzzing --test fuzz_regressions -- --ignored
# they are kept; everything else is written again. When the spec types of
# judge/src/gen/ change, the same bytes decode to other specs: that
# test fails, and the command above writes them again.
for target in ["root_uri", "lexical", "lexical_roots", "resolve_model", "resolve_kernel",
               "scenario_json"]:
    folder = os.path.join(CORPUS, target)
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        if not name.startswith("spec-"):
            os.remove(os.path.join(folder, name))

# root_uri: a dozen vectors, valid and invalid, one per rule.
picked = [
    "file:///", "FILE:/a", "file:////a", "File://LocalHost/a/%2e%2e/b%20c/", "file://srv/a",
    "file://u@localhost/a", "file://localhost:80/a",
]
uris = [v["uri"] for v in vectors if v["uri"] in picked]
uris += ["file:///a//../b", "file:///x/%2E%2e/y?q", "file:///a%2Fb%00", "file:///%ff%FE/x",
         "file:///C:/../a\\..\\b"]
for uri in uris:
    write("root_uri", uri.encode())

# The scenario targets: small hostile.json scenarios as they are, and
# spec-shaped byte strings (any bytes decode to some spec).
small = ["sibling-prefix", "dotdot-climb", "absolute-links", "relative-links", "chained-links",
         "link-loops", "physical-dotdot", "dangling-link-write", "root-through-link",
         "valid-root-forms", "encoded-dotdot-roots", "root-empty-segment-dotdot", "long-names",
         "enotdir", "unicode-lookalikes", "non-utf8-percent-root", "nul-in-path"]
for target in ["resolve_model", "resolve_kernel"]:
    for name in small[:8]:
        write(target, doc(by_name[name]), name + ".json")

# lexical_roots: the same documents' roots and case paths, hand-written
# ones, and specs.
lexical_docs = {name + ".json": doc(by_name[name]) for name in
                ["sibling-prefix", "dotdot-climb", "valid-root-forms", "encoded-dotdot-roots",
                 "root-empty-segment-dotdot", "unicode-lookalikes", "non-utf8-percent-root",
                 "nul-in-path"]}
lexical_docs["hand-prefix.json"] = doc({
    "name": "lexical-prefix", "tree": [],
    "roots": ["file:///x/proj", "file://localhost/x/proj2/", "file:///x/a//../b", "file:///"],
    "cases": [{"path": p, "op": "read"} for p in
              ["/x/proj/a/../b", "/x/proj2/a", "/x/proj/../proj2", "/x/a/b", "/x/b", "/x/proj\u0000/a"]],
})
for name, data in lexical_docs.items():
    write("lexical_roots", data, name)
# lexical: paths near a root of a pool set. Set 3 is /x/proj and /x/proj2;
# the others are spread over the pool. Mode 1 starts the path with the
# root, 4 with its parent, 5 with the root cut short, 0 with nothing.
rests = [b"", b"/", b"2", b"2/a", b"/a/../b", b"/..", b"/../proj2", b"/./a//b/", b"/a/../../x",
         b"/\x00", b"/.a/..b/...", b"/" + b"a" * 40 + b"/..", b"/../" * 5]
for i, (set_, mode) in enumerate([(3, 1), (3, 9), (3, 4), (3, 5), (2, 1), (0, 0)] +
                                 [(s, 1 + 8 * (s % 5)) for s in range(5, 256, 17)]):
    rest = rests[i % len(rests)]
    write("lexical", bytes([set_, mode]) + rest, f"pool-{i}")
write("lexical", bytes([3, 0]) + b"/x/proj/../proj2/a", "pool-raw")

# scenario_json: documents, and broken ones that must get clear errors.
for name in ["sibling-prefix", "links-40-vs-41", "non-utf8-percent-root", "long-names"]:
    write("scenario_json", doc(by_name[name]), name + ".json")
for i, text in enumerate([
    '{"version": 2, "scenarios": []}',
    '{"version": 1, "scenarios": [{"name": "s", "tree": [{"dir": "a"}, {"file": "a/../b"}], "roots": [], "cases": []}]}',
    '{"version": 1, "scenarios": [{"name": "s", "tree": [{"symlink": "l"}], "roots": [], "cases": []}]}',
    '{"version": 1, "scenarios": [{"name": "s", "tree": [], "roots": [], "cases": [{"path": "rel", "op": "read"}]}]}',
    '{"version": 1, "scenarios": [{"name": "s", "tree": [], "roots": [], "cases": []}, {"name": "s", "tree": [], "roots": [], "cases": []}]}',
    '{"version": 1, "scenarios": [{"name": "s", "tree": [{"file": "f"}, {"dir": "f/g"}], "roots": ["file:///"], "cases": [{"path": "{base}/f", "op": "write", "expect": "maybe"}]}]}',
    '{"version": 1, "scenarios": [], "extra": 1}',
    '[1, 2',
]):
    write("scenario_json", text.encode(), f"hand-{i}.json")
