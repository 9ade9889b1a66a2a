#!/usr/bin/env python3
"""Your server's path check, vetted by rootguard (checker protocol v1).

    pip install ROOTGUARD/adapters/python    # ROOTGUARD: a clone of rootguard
    rootguard vet --budget 20 -- python3 rootguard_checker.py

rootguard starts this once and sends it thousands of hostile requests: roots
as an MCP client sends them, a path a tool call carries, an operation. Make
is_allowed() call the check your server runs before it touches a file.
"""

from rootguard_protocol import serve


def is_allowed(roots, path, op):
    """Whether your server lets `op` ("read" or "write") on `path` go ahead.

    `roots` is a list of root URIs ("file:///home/u/proj") exactly as the
    client sent them. Return True or False, or (True, real_path) when your
    server operates on a path it rewrote (a canonical one, say).
    """
    return True  # PLACEHOLDER: allows everything, so vet finds escapes; call your check instead


if __name__ == "__main__":
    serve(is_allowed)
