"""A 2026-07-28 server whose requestState is a JWT it signs but never
verifies, on purpose: the token (HS256) carries the roots the client
approved earlier (`roots`, empty at first) and an expiry, and on the retry
the server reads the payload without checking the signature (as
`jwt.decode(token, options={"verify_signature": False})` does), adding its
`roots` to those in inputResponses. A client that adds a root to the
payload, old signature kept or `alg: none`, reads outside every root.
rootguard mcp must report RG-STATE-UNSEALED and RG-STATE-TRUSTED."""

import base64
import hashlib
import hmac
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mini_fs_server import Server, main  # noqa: E402


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class JwtState(Server):
    eras = ("modern",)
    NAME = "rootguard-jwt-state"

    def token(self, payload):
        head = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
        body = b64url(json.dumps(payload).encode())
        mac = hmac.new(self.key, ("%s.%s" % (head, body)).encode(), hashlib.sha256).digest()
        return "%s.%s.%s" % (head, body, b64url(mac))

    @staticmethod
    def claims(token):
        """The payload, signature unchecked: the flaw."""
        try:
            return json.loads(unb64url(token.split(".")[1]))
        except (AttributeError, IndexError, TypeError, ValueError):
            return None

    def modern_call(self, params, client_has_roots):
        if not client_has_roots:
            return Server.modern_call(self, params, client_has_roots)
        responses = params.get("inputResponses") or {}
        claims = self.claims(params.get("requestState"))
        if claims is None or "roots" not in responses or claims.get("exp", 0) < time.time():
            now = int(time.time())
            return {"resultType": "input_required",
                    "inputRequests": {"roots": {"method": "roots/list", "params": {}}},
                    "requestState": self.token({"sub": "tools/call", "tool": params.get("name"),
                                                "roots": [], "iat": now, "exp": now + 300})}
        roots = responses["roots"].get("roots", [])
        roots = roots + [{"uri": "file://" + r} if r.startswith("/") else {"uri": r}
                         for r in claims.get("roots", []) if isinstance(r, str)]
        self.set_roots(roots)
        return self.run_tool(params)


main(refresh=True, cls=JwtState)
