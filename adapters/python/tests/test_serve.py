"""serve(): the long-lived process the harness talks to, as a real child process."""

import io
import json
import os
import subprocess
import sys
import unittest

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
sys.path.insert(0, SRC)

from rootguard_protocol import serve  # noqa: E402

PRELUDE = f"import sys; sys.path.insert(0, {os.path.abspath(SRC)!r}); from rootguard_protocol import serve\n"


def checker(body: str) -> subprocess.Popen:
    """A child process running PRELUDE, then `body` (which calls serve)."""
    return subprocess.Popen(
        [sys.executable, "-c", PRELUDE + body],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    )


def line(request_id: int, path: str = "/srv/a", op: str = "read") -> bytes:
    return json.dumps({"id": request_id, "roots": ["file:///srv"], "path": path, "op": op}).encode() + b"\n"


class Process(unittest.TestCase):
    def test_answers_every_line_in_order_and_exits_0_when_stdin_closes(self):
        child = checker("serve(lambda roots, path, op: op == 'read')")
        stdin = b"".join(line(i, op="read" if i % 2 else "write") for i in range(1, 201)) + b"\n  \n"
        out, err = child.communicate(stdin, timeout=30)
        answers = [json.loads(a) for a in out.splitlines()]
        self.assertEqual([a["id"] for a in answers], list(range(1, 201)), err)
        self.assertEqual([a["allowed"] for a in answers], [i % 2 == 1 for i in range(1, 201)])
        self.assertEqual((child.returncode, err), (0, b""))

    def test_answers_each_line_before_the_next_one_comes(self):
        with checker("serve(lambda roots, path, op: True)") as child:
            for i in (1, 2):
                child.stdin.write(line(i))
                self.assertEqual(json.loads(child.stdout.readline())["id"], i)
            child.stdin.close()
            self.assertEqual(child.wait(timeout=10), 0)

    def test_a_closed_stdout_ends_it_quietly(self):
        with checker("serve(lambda roots, path, op: True)") as child:
            child.stdout.close()
            try:
                child.stdin.write(line(1) * 10000)
            except BrokenPipeError:
                pass  # it may be gone already, which is what is asked
            child.stdin.close()
            self.assertEqual(child.wait(timeout=30), 0)
            self.assertEqual(child.stderr.read(), b"")

    def test_a_raising_check_is_answered_and_its_traceback_told_once(self):
        child = checker("def check(roots, path, op):\n    raise ValueError('no ' + path)\nserve(check)")
        out, err = child.communicate(line(1) + line(2, "/srv/b"), timeout=30)
        answers = [json.loads(a) for a in out.splitlines()]
        self.assertEqual(
            answers,
            [
                {"id": 1, "allowed": False, "reason": "the check raised ValueError: no /srv/a"},
                {"id": 2, "allowed": False, "reason": "the check raised ValueError: no /srv/b"},
            ],
        )
        self.assertEqual(err.count(b"Traceback"), 1, err)
        self.assertIn(b"no /srv/b", err)
        self.assertEqual(child.returncode, 0)

    def test_an_async_check(self):
        child = checker(
            "import asyncio\n"
            "async def check(roots, path, op):\n    await asyncio.sleep(0)\n    return (True, path + '.real')\n"
            "serve(check)"
        )
        out, err = child.communicate(line(1), timeout=30)
        self.assertEqual(json.loads(out), {"id": 1, "allowed": True, "use": "/srv/a.real"}, err)


class Streams(unittest.TestCase):
    def test_serve_on_given_streams(self):
        stdout = io.BytesIO()
        serve(lambda roots, path, op: False, stdin=io.BytesIO(line(5) + b"junk\n"), stdout=stdout, stderr=io.StringIO())
        self.assertEqual(
            [json.loads(a) for a in stdout.getvalue().splitlines()],
            [
                {"id": 5, "allowed": False},
                {"id": None, "allowed": False, "reason": "not a JSON request: Expecting value: line 1 column 1 (char 0)"},
            ],
        )

    def test_the_answer_line_is_ascii_json_with_the_id_first(self):
        stdout = io.BytesIO()
        check = lambda roots, path, op: {"allowed": True, "reason": "é ok", "use": "/srv/é"}  # noqa: E731
        serve(check, stdin=io.BytesIO(line(9)), stdout=stdout)
        text = stdout.getvalue()
        self.assertEqual(text, b'{"id": 9, "allowed": true, "reason": "\\u00e9 ok", "use": "/srv/\\u00e9"}\n')


if __name__ == "__main__":
    unittest.main()
