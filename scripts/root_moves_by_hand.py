#!/usr/bin/env python3
"""A root that moves under a live MCP server, by hand, without rootguard.

    scripts/root_moves_by_hand.py renamed BASE READ_TOOL -- SERVER-COMMAND...
    scripts/root_moves_by_hand.py swapped BASE READ_TOOL -- SERVER-COMMAND...

BASE is made afresh (removed first). `{root}` in the command becomes the
root directory; without it the root is appended. The server is spoken to
over stdio in the 2025-11-25 era, every answer printed.

renamed: the root is BASE/proj (file.txt holds OLD-proj). After one read,
proj is renamed was-proj and a new proj made (file.txt: NEW-proj); then
proj/file.txt is read and proj/written.txt written. OLD-proj, or
written.txt appearing in was-proj, means the server kept the old directory.

swapped: the root is BASE/rootlink, a link to proj. After one read the
link is pointed at other; then proj/file.txt (beneath no root now) and
rootlink/file.txt (other's now) are read. ROOT-proj from the first means
the server kept the old resolution.

Python 3.8 or later, standard library only.
"""
import json
import os
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) < 6 or sys.argv[1] not in ("renamed", "swapped") or sys.argv[4] != "--":
        sys.exit(__doc__)
    mode, base, tool, command = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3], sys.argv[5:]
    shutil.rmtree(base, ignore_errors=True)
    dirs = ("proj",) if mode == "renamed" else ("proj", "other")
    for d in dirs:
        os.makedirs(os.path.join(base, d))
        with open(os.path.join(base, d, "file.txt"), "w") as f:
            f.write("OLD-proj\n" if mode == "renamed" else "ROOT-%s\n" % d)
    root = os.path.join(base, "proj")
    if mode == "swapped":
        root = os.path.join(base, "rootlink")
        os.symlink(os.path.join(base, "proj"), root)
    if any("{root}" in a for a in command):
        command = [a.replace("{root}", root) for a in command]
    else:
        command = command + [root]
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)

    def send(message):
        server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()

    def request(rid, method, params):
        send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        for line in server.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("id") == rid:
                print("<<", json.dumps(message.get("result", message.get("error")))[:300], flush=True)
                return message
        print("!! the server closed its stdout", flush=True)
        return None

    def call(rid, name, arguments):
        print(">>", name, json.dumps(arguments), flush=True)
        return request(rid, "tools/call", {"name": name, "arguments": arguments})

    request(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                              "clientInfo": {"name": "root_moves_by_hand", "version": "1"}})
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    if mode == "renamed":
        call(2, tool, {"path": os.path.join(base, "proj/file.txt")})
        os.rename(os.path.join(base, "proj"), os.path.join(base, "was-proj"))
        os.mkdir(os.path.join(base, "proj"))
        with open(os.path.join(base, "proj/file.txt"), "w") as f:
            f.write("NEW-proj\n")
        print("-- renamed proj to was-proj, made a new proj", flush=True)
        call(3, tool, {"path": os.path.join(base, "proj/file.txt")})
        call(4, "write_file", {"path": os.path.join(base, "proj/written.txt"), "content": "WRITTEN\n"})
        print("was-proj:", sorted(os.listdir(os.path.join(base, "was-proj"))),
              "proj:", sorted(os.listdir(os.path.join(base, "proj"))), flush=True)
    else:
        call(2, tool, {"path": os.path.join(base, "rootlink/file.txt")})
        swap = os.path.join(base, "rootlink.swap")
        os.symlink(os.path.join(base, "other"), swap)
        os.rename(swap, os.path.join(base, "rootlink"))
        print("-- rootlink now points at other", flush=True)
        call(3, tool, {"path": os.path.join(base, "proj/file.txt")})
        call(4, tool, {"path": os.path.join(base, "rootlink/file.txt")})
    server.kill()


if __name__ == "__main__":
    main()
