"""A 2026-07-28 server whose requestState is readable but sealed, as the
revision asks (basic/patterns/mrtr.mdx): a JWT signed with HS256 under a key
of its own, binding the tool, its path, a digest of the arguments and a short expiry.
On the retry it verifies the signature (and refuses any other alg),
the expiry and the binding, and judges the call by the roots in that
retry's inputResponses alone; a state that fails is answered with a fresh
input_required. rootguard mcp must find nothing, RG-STATE-UNSEALED
included."""

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


class SealedState(Server):
    eras = ("modern",)
    NAME = "rootguard-sealed-state"

    def mac(self, signed):
        return hmac.new(self.key, signed.encode(), hashlib.sha256).digest()

    @staticmethod
    def digest(params):
        call = json.dumps([params.get("name"), params.get("arguments", {})], sort_keys=True)
        return hashlib.sha256(call.encode()).hexdigest()

    def token(self, params):
        head = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
        now = int(time.time())
        body = b64url(json.dumps({"sub": "tools/call", "tool": params.get("name"),
                                  "path": (params.get("arguments") or {}).get("path"),
                                  "call": self.digest(params), "iat": now, "exp": now + 60}).encode())
        signed = "%s.%s" % (head, body)
        return "%s.%s" % (signed, b64url(self.mac(signed)))

    def verified(self, token, params):
        """The claims of a token this server issued for this very call, unexpired; else None."""
        try:
            head, body, sig = token.split(".")
            if json.loads(unb64url(head)).get("alg") != "HS256":
                return None
            if not hmac.compare_digest(unb64url(sig), self.mac("%s.%s" % (head, body))):
                return None
            claims = json.loads(unb64url(body))
        except (AttributeError, TypeError, ValueError):
            return None
        if claims.get("exp", 0) < time.time() or claims.get("call") != self.digest(params):
            return None
        return claims

    def modern_call(self, params, client_has_roots):
        if not client_has_roots:
            return Server.modern_call(self, params, client_has_roots)
        responses = params.get("inputResponses") or {}
        if "roots" not in responses or self.verified(params.get("requestState"), params) is None:
            return {"resultType": "input_required",
                    "inputRequests": {"roots": {"method": "roots/list", "params": {}}},
                    "requestState": self.token(params)}
        self.set_roots(responses["roots"].get("roots", []))
        return self.run_tool(params)


main(refresh=True, cls=SealedState)
