"""rootguard's checker protocol v1 for a path check written in Python.

Three lines make a checker that ``rootguard vet`` can judge::

    from rootguard_protocol import serve
    from my_server.paths import is_allowed  # your check: (roots, path, op) -> bool
    serve(is_allowed)

``serve`` reads one JSON request a line from stdin, calls the check with the
request's ``roots`` (a list of root URI strings, exactly as an MCP client sent
them), ``path`` (a str; ``os.fsencode(path)`` gives its bytes, since a line's
invalid UTF-8 is read with ``surrogateescape``) and ``op`` (``"read"`` or
``"write"``), writes the answer as one JSON line to stdout, and returns when
stdin closes.

The check returns one of

* ``True`` or ``False``: the operation may go ahead, or not;
* ``(allowed, use_path)``: as above, and when allowed, the path the server
  will really operate on (many checks return a canonical path); the verdict
  is then judged on ``use_path`` (a str, bytes or os.PathLike, or None);
* a dict with ``"allowed"`` and optionally ``"reason"`` (shown in reports)
  and ``"use"``: the protocol's own response fields.

An ``async def`` check works too: each call runs in an event loop of its own.

Whatever goes wrong is answered ``"allowed": false`` with a reason, never a
crash (docs/checker-protocol.md): a line that is not a request, a check that
raises (its traceback goes to stderr), and a check that returns anything else.
"""

import asyncio
import inspect
import json
import os
import sys
import traceback

__version__ = "0.1.0"
__all__ = ["answer", "serve"]

_FIELDS = frozenset(("allowed", "reason", "use"))
_SHAPES = "return True/False, (allowed, use_path) or a dict with 'allowed'"


class _BadVerdict(Exception):
    """The check returned something the protocol cannot carry."""


def _text(value: str) -> str:
    """`value` as valid Unicode: a lone surrogate becomes the text ``\\udcXX``."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


def _use_path(use) -> str:
    """The ``use`` field for a path the check returned, exactly."""
    try:
        raw = os.fsencode(use)
    except TypeError:
        raise _BadVerdict(f"use_path is {type(use).__name__}, not a str, bytes or os.PathLike") from None
    except UnicodeEncodeError:
        raise _BadVerdict(f"use_path {_text(str(use))!r} holds a lone surrogate") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        # The protocol carries JSON text: a rewritten path it cannot spell would be judged wrongly.
        raise _BadVerdict(f"use_path {raw!r} is not UTF-8, which the protocol cannot carry") from None


def _verdict(result) -> dict:
    """The response fields for what the check returned."""
    if isinstance(result, bool):
        return {"allowed": result}
    if isinstance(result, (tuple, list)) and len(result) == 2 and isinstance(result[0], bool):
        allowed, use = result
        fields = {"allowed": allowed}
        if allowed and use is not None:
            fields["use"] = _use_path(use)
        return fields
    if isinstance(result, dict) and isinstance(result.get("allowed"), bool):
        unknown = sorted(str(k) for k in result if k not in _FIELDS)
        if unknown:
            raise _BadVerdict(f"the dict holds {', '.join(unknown)}; its keys are allowed, reason and use")
        fields = {"allowed": result["allowed"]}
        reason = result.get("reason")
        if reason is not None:
            if not isinstance(reason, str):
                raise _BadVerdict(f"reason is {type(reason).__name__}, not a str")
            fields["reason"] = _text(reason)
        if fields["allowed"] and result.get("use") is not None:
            fields["use"] = _use_path(result["use"])
        return fields
    raise _BadVerdict(f"the check returned {_text(repr(result))[:200]}; {_SHAPES}")


def _problem(request: dict):
    """What makes `request` malformed, or None."""
    request_id, roots = request.get("id"), request.get("roots")
    if not isinstance(request_id, int) or isinstance(request_id, bool):
        return "id is not an integer"
    if not isinstance(roots, list):
        return "roots is not an array"
    for i, root in enumerate(roots):
        if not isinstance(root, str):
            return f"roots[{i}] is not a string"
    if not isinstance(request.get("path"), str):
        return "path is not a string"
    if request.get("op") not in ("read", "write"):
        return "op is neither read nor write"
    return None


class _Errors:
    """Tells stderr why a check failed: the first traceback whole, then a line each."""

    def __init__(self, stream):
        self.stream = stream
        self.told = 0

    def tell(self, line: str, traceback_text: str = "") -> None:
        self.told += 1
        text = traceback_text if traceback_text and self.told == 1 else line + "\n"
        try:
            self.stream.write("rootguard_protocol: " + text)
            self.stream.flush()
        except (OSError, ValueError):
            pass  # stderr is gone: the answer still says why


async def _awaited(awaitable):
    return await awaitable


def _ask(check, request: dict, errors: _Errors) -> dict:
    """The verdict fields of `check` on a well-formed request."""
    try:
        result = check(request["roots"], request["path"], request["op"])
        if inspect.isawaitable(result):
            result = asyncio.run(_awaited(result))
    except Exception as e:  # a checker must answer, never crash
        reason = _text(f"the check raised {type(e).__name__}: {e}")
        errors.tell(reason, "the check raised:\n" + _text(traceback.format_exc()))
        return {"allowed": False, "reason": reason}
    try:
        return _verdict(result)
    except _BadVerdict as e:
        errors.tell(str(e))
        return {"allowed": False, "reason": str(e)}


def _answer(line: bytes, check, errors: _Errors) -> dict:
    try:
        request = json.loads(line.decode("utf-8", "surrogateescape"))
    except (ValueError, RecursionError) as e:
        return {"id": None, "allowed": False, "reason": f"not a JSON request: {e}"}
    if not isinstance(request, dict):
        return {"id": None, "allowed": False, "reason": "request is not a JSON object"}
    request_id = request.get("id")
    if not isinstance(request_id, int) or isinstance(request_id, bool):
        request_id = None
    problem = _problem(request)
    if problem:
        return {"id": request_id, "allowed": False, "reason": f"bad request: {problem}"}
    return {"id": request_id, **_ask(check, request, errors)}


def answer(line: bytes, check, *, stderr=None) -> dict:
    """The response to one request line, as a dict; never raises.

    `check` is called as ``check(roots, path, op)`` when the line is a
    well-formed request; why it failed, if it did, goes to `stderr` (default
    sys.stderr). A line without an integer id is answered with ``"id": None``.

    >>> answer(b'{"id": 1, "roots": ["file:///srv"], "path": "/srv/a", "op": "read"}',
    ...        lambda roots, path, op: op == "read")
    {'id': 1, 'allowed': True}
    >>> answer(b'not json', lambda roots, path, op: True)["allowed"]
    False
    """
    return _answer(line, check, _Errors(stderr or sys.stderr))


def serve(check, *, stdin=None, stdout=None, stderr=None) -> None:
    """Answers requests with `check` until stdin closes (or stdout does).

    `stdin` and `stdout` are binary streams, by default the process's own; each
    answer is flushed as soon as it is written.
    """
    source = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    errors = _Errors(stderr or sys.stderr)
    try:
        for line in source:
            if not line.strip():
                continue
            response = _answer(line, check, errors)
            text = json.dumps(response, ensure_ascii=True, allow_nan=False)
            out.write(text.encode("ascii") + b"\n")
            out.flush()
    except BrokenPipeError:
        if stdout is None:
            # Nothing may be flushed into the closed pipe at exit (Python's own advice).
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
    except KeyboardInterrupt:
        pass
