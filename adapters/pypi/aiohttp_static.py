#!/usr/bin/env python3
"""Checker protocol v1 adapter for the path check of ``aiohttp``'s static
route (``web.static(prefix, ROOT)``, class ``StaticResource``; PyPI
``aiohttp``):

    python3 adapters/pypi/aiohttp_static.py

The call and why: the route's handler, ``StaticResource._handle(request)``,
is all of aiohttp's containment: it refuses an absolute ``filename``, joins
it to the directory (resolved at construction), and in
``_resolve_path_to_response`` resolves the join (the default
``follow_symlinks=False``: "no access outside root is permitted") and
raises 404 unless ``relative_to(directory)`` holds; then a directory is a
listing (``show_index=True`` here, so that a directory can be read) and
anything else a ``FileResponse`` of the resolved path. The checker awaits
that handler on a mocked request (``aiohttp.test_utils.make_mocked_request``
with ``match_info={"filename": rest}``, as the router would give it):

  - each root URI becomes a directory (``_common.root_paths``); a root
    ``StaticResource`` refuses (missing, not a directory) grants nothing;
  - the request's path is split at the root's text
    (``_common.relative_part``): the rest is ``filename``;
  - allowed when the handler returns a response; ``use`` is the
    ``FileResponse``'s path, or for a listing the resolved directory (the
    same ``joinpath(filename).resolve()`` the handler lists).

A static route only reads: a write is denied (reason: read-only), which
rootguard counts as overblocks.
"""

import aiohttp
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from aiohttp.web_urldispatcher import StaticResource

from _common import relative_part, root_paths, serve


async def check(roots, path, op):
    if op != "read":
        return {"allowed": False, "reason": "a static route serves reads only"}
    why = "no root's text begins the path"
    for root in root_paths(roots):
        rest = relative_part(path, root)
        if rest is None:
            continue
        try:
            resource = StaticResource("/static", root, show_index=True)
        except ValueError as e:
            why = f"StaticResource refused the root: {e}"
            continue
        request = make_mocked_request("GET", "/static/", match_info={"filename": rest})
        try:
            response = await resource._handle(request)
        except web.HTTPException as e:
            why = f"{type(e).__name__} for {rest!r}"
            continue
        if isinstance(response, web.FileResponse):
            use = str(response._path)
        else:
            use = str(resource._directory.joinpath(rest).resolve())
        return {"allowed": True, "use": use, "reason": f"{type(response).__name__} of {use!r}"}
    return {"allowed": False, "reason": why}


if __name__ == "__main__":
    import sys
    sys.stderr.write(f"aiohttp {aiohttp.__version__} from {aiohttp.__file__}\n")
    serve(check)
