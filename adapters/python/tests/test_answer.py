"""answer(): one request line in, one response out, whatever the line or the check does."""

import doctest
import io
import json
import os
import pathlib
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import rootguard_protocol  # noqa: E402
from rootguard_protocol import answer  # noqa: E402


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(rootguard_protocol))
    return tests


def request(**fields):
    base = {"id": 7, "roots": ["file:///srv"], "path": "/srv/a.txt", "op": "read"}
    base.update(fields)
    return json.dumps(base).encode()


def ask(line, check, stderr=None):
    return answer(line, check, stderr=stderr or io.StringIO())


class Calls(unittest.TestCase):
    def test_the_check_gets_roots_path_and_op(self):
        seen = []
        got = ask(request(roots=["file:///a", "file:///b"], path="/a/x", op="write"), lambda *a: seen.append(a) or True)
        self.assertEqual(seen, [(["file:///a", "file:///b"], "/a/x", "write")])
        self.assertEqual(got, {"id": 7, "allowed": True})

    def test_invalid_utf8_reaches_the_check_as_surrogates(self):
        seen = []
        line = b'{"id": 1, "roots": [], "path": "/srv/\xff", "op": "read"}'
        ask(line, lambda roots, path, op: seen.append(path) or False)
        self.assertEqual(os.fsencode(seen[0]), b"/srv/\xff")

    def test_an_id_beyond_two_to_the_64_is_echoed_exactly(self):
        self.assertEqual(ask(request(id=2**70), lambda *a: False)["id"], 2**70)


class Verdicts(unittest.TestCase):
    def test_a_bool(self):
        self.assertEqual(ask(request(), lambda *a: False), {"id": 7, "allowed": False})

    def test_a_pair_with_a_use_path(self):
        self.assertEqual(ask(request(), lambda *a: (True, "/srv/real")), {"id": 7, "allowed": True, "use": "/srv/real"})
        self.assertEqual(ask(request(), lambda *a: (True, b"/srv/real"))["use"], "/srv/real")
        self.assertEqual(ask(request(), lambda *a: (True, pathlib.Path("/srv/r")))["use"], "/srv/r")
        self.assertEqual(ask(request(), lambda *a: [True, None]), {"id": 7, "allowed": True})

    def test_a_denial_carries_no_use_path(self):
        self.assertEqual(ask(request(), lambda *a: (False, "/srv/real")), {"id": 7, "allowed": False})

    def test_a_dict_of_the_protocols_fields(self):
        got = ask(request(), lambda *a: {"allowed": True, "reason": "fine", "use": "/srv/b"})
        self.assertEqual(got, {"id": 7, "allowed": True, "reason": "fine", "use": "/srv/b"})

    def test_a_reason_holding_surrogates_stays_valid_unicode(self):
        line = b'{"id": 1, "roots": [], "path": "/\xff", "op": "read"}'
        got = ask(line, lambda roots, path, op: {"allowed": False, "reason": f"{path} is out"})
        self.assertEqual(got["reason"], "/\\udcff is out")
        json.dumps(got).encode("utf-8")  # strict: no lone surrogate left

    def test_anything_else_is_a_denial_that_says_why(self):
        for result, said in [
            (None, "returned None"),
            (1, "returned 1"),
            ("/srv/a.txt", "returned '/srv/a.txt'"),
            ((True,), "returned (True,)"),
            ({"allowed": "yes"}, "returned {'allowed': 'yes'}"),
            ({"allowed": True, "used": "/x"}, "holds used"),
            ({"allowed": False, "reason": 3}, "reason is int"),
            ((True, 3), "use_path is int"),
            ((True, b"/srv/\xff"), "not UTF-8"),
            ((True, "/srv/\ud800"), "lone surrogate"),
        ]:
            stderr = io.StringIO()
            got = ask(request(), lambda *a: result, stderr)
            self.assertEqual(got["allowed"], False, result)
            self.assertIn(said, got["reason"])
            self.assertIn(said, stderr.getvalue())

    def test_a_check_that_raises_is_a_denial_and_a_traceback(self):
        def check(roots, path, op):
            raise KeyError("boom")

        stderr = io.StringIO()
        got = ask(request(), check, stderr)
        self.assertEqual(got, {"id": 7, "allowed": False, "reason": "the check raised KeyError: 'boom'"})
        self.assertIn("Traceback", stderr.getvalue())
        self.assertIn('raise KeyError("boom")', stderr.getvalue())


class MalformedRequests(unittest.TestCase):
    def test_each_is_denied_with_what_is_wrong(self):
        never = lambda *a: self.fail("the check was called")  # noqa: E731
        for line, want_id, said in [
            (b"not json", None, "not a JSON request"),
            (b"[1, 2]", None, "not a JSON object"),
            (b'{"id": 1', None, "not a JSON request"),
            (b"[" * 20000, None, "not a JSON request"),
            (b'{"id": "five", "roots": [], "path": "/", "op": "read"}', None, "id is not an integer"),
            (b'{"id": true, "roots": [], "path": "/", "op": "read"}', None, "id is not an integer"),
            (b'{"id": 1}', 1, "roots is not an array"),
            (b'{"id": 2, "roots": "file:///", "path": "/", "op": "read"}', 2, "roots is not an array"),
            (b'{"id": 3, "roots": ["file:///", null], "path": "/", "op": "read"}', 3, "roots[1] is not a string"),
            (b'{"id": 4, "roots": [], "path": 7, "op": "read"}', 4, "path is not a string"),
            (b'{"id": 5, "roots": [], "path": "/", "op": "delete"}', 5, "op is neither read nor write"),
            (b'{"id": 6, "roots": [], "path": "/\xff", "op": \xff}', None, "not a JSON request"),
        ]:
            got = ask(line, never)
            self.assertEqual((got["id"], got["allowed"]), (want_id, False), line[:60])
            self.assertIn(said, got["reason"], line[:60])


if __name__ == "__main__":
    unittest.main()
