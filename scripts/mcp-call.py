#!/usr/bin/env python3
"""A hand client for MCP servers over stdio, independent of rootguard's own.

Findings of `rootguard mcp` are confirmed by hand with it: it starts the
server, speaks plain newline-delimited JSON-RPC, prints every message both
ways (`>>` sent, `<<` received, `!!` anything else), and does nothing clever.

    scripts/mcp-call.py [--roots DIR,DIR] [--root-uri URI]... [--modern] [--discover] [--list]
        [--call TOOL JSON]... [--req METHOD JSON]... [--timeout S]
        [--stderr FILE] -- SERVER-COMMAND...

Legacy era (default): `initialize` (protocol 2025-11-25, the roots
capability when --roots or --root-uri is given), `notifications/initialized`,
then the calls; `roots/list` is answered with --roots (each as `file://DIR`)
and then each --root-uri exactly as written (a hostile root: `file:DIR`,
a bare path, a query). --modern (2026-07-28): no
`initialize`; every request carries the `_meta` keys of that revision; an
`input_required` result asking for `roots/list` is retried with
`inputResponses` and the echoed `requestState`. Elicitation is never
accepted: rootguard's rule is that a client grants nothing.

Python 3.8 or later, standard library only.
"""
import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time


def parse_args(argv):
    if "--" not in argv:
        sys.exit("mcp-call.py: put the server's command after `--` (see --help)")
    cut = argv.index("--")
    p = argparse.ArgumentParser(prog="mcp-call.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--roots", help="comma-separated directories to answer roots/list with")
    p.add_argument("--root-uri", action="append", default=[], metavar="URI",
                   help="a root URI sent as written, after --roots (repeatable)")
    p.add_argument("--modern", action="store_true", help="speak the 2026-07-28 revision")
    p.add_argument("--discover", action="store_true", help="send server/discover first")
    p.add_argument("--list", action="store_true", help="list the tools and their arguments")
    p.add_argument("--call", nargs=2, action="append", default=[], metavar=("TOOL", "JSON"))
    p.add_argument("--req", nargs=2, action="append", default=[], metavar=("METHOD", "JSON"))
    p.add_argument("--timeout", type=float, default=15.0, help="seconds per request (15)")
    p.add_argument("--stderr", default=os.devnull, help="where the server's stderr goes")
    args = p.parse_args(argv[:cut])
    command = argv[cut + 1 :]
    if not command:
        sys.exit("mcp-call.py: no server command after `--`")
    return args, command


def main():
    args, command = parse_args(sys.argv[1:])
    roots = None if args.roots is None else [r for r in args.roots.split(",") if r]
    root_list = [{"uri": "file://" + r, "name": os.path.basename(r)} for r in roots or []]
    root_list += [{"uri": u, "name": "root"} for u in args.root_uri]
    if args.root_uri and roots is None:
        roots = []
    with open(args.stderr, "w") as err:
        server = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True, bufsize=1
        )
    inbox = queue.Queue()

    def read():
        for line in server.stdout:
            line = line.strip()
            if not line:
                continue
            try:
                inbox.put(json.loads(line))
            except ValueError:
                print("!! non-JSON stdout:", line[:300], flush=True)
        inbox.put(None)

    threading.Thread(target=read, daemon=True).start()

    def show(direction, message):
        text = json.dumps(message, ensure_ascii=False)
        print(direction, text if len(text) <= 3000 else text[:3000] + "...(cut)", flush=True)

    def send(message):
        show(">>", message)
        server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()

    def answer(message):
        if message.get("method") == "roots/list" and roots is not None:
            send({"jsonrpc": "2.0", "id": message["id"], "result": {"roots": root_list}})
        elif message.get("method") == "ping":
            send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
        else:
            error = {"code": -32601, "message": "Method not found"}
            send({"jsonrpc": "2.0", "id": message["id"], "error": error})

    def meta():
        capabilities = {"roots": {}} if roots is not None else {}
        return {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "mcp-call.py", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        }

    next_id = [0]

    def request(method, params=None):
        next_id[0] += 1
        rid = next_id[0]
        params = dict(params or {})
        if args.modern:
            params["_meta"] = meta()
        send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = time.time() + args.timeout
        while True:
            try:
                message = inbox.get(timeout=max(0.1, deadline - time.time()))
            except queue.Empty:
                print("!! no answer to", method, "within", args.timeout, "s", flush=True)
                return None
            if message is None:
                print("!! the server closed its stdout", flush=True)
                return None
            show("<<", message)
            if "method" in message and "id" in message:
                answer(message)
            elif message.get("id") == rid:
                return message

    def call(method, params):
        reply = request(method, params)
        for _ in range(3):
            result = (reply or {}).get("result") or {}
            if result.get("resultType") != "input_required":
                return reply
            responses = {}
            for key, wanted in (result.get("inputRequests") or {}).items():
                if wanted.get("method") == "roots/list":
                    responses[key] = {"roots": root_list}
                elif wanted.get("method") == "elicitation/create":
                    responses[key] = {"action": "decline"}
            retry = dict(params, inputResponses=responses)
            if "requestState" in result:
                retry["requestState"] = result["requestState"]
            reply = request(method, retry)
        return reply

    if args.discover or args.modern:
        request("server/discover")
    if not args.modern:
        capabilities = {"roots": {"listChanged": True}} if roots is not None else {}
        client = {"name": "mcp-call.py", "version": "1"}
        request("initialize", {"protocolVersion": "2025-11-25", "capabilities": capabilities, "clientInfo": client})
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        time.sleep(0.3)
        while not inbox.empty():
            message = inbox.get()
            if message is None:
                break
            show("<<", message)
            if "method" in message and "id" in message:
                answer(message)
    if args.list:
        reply = request("tools/list")
        for tool in ((reply or {}).get("result") or {}).get("tools", []):
            properties = (tool.get("inputSchema") or {}).get("properties", {})
            print("TOOL", tool["name"], sorted(properties), flush=True)
    for name, arguments in args.call:
        call("tools/call", {"name": name, "arguments": json.loads(arguments)})
    for method, params in args.req:
        call(method, json.loads(params))
    try:
        server.stdin.close()
        server.wait(timeout=5)
    except Exception:
        server.kill()


if __name__ == "__main__":
    main()
