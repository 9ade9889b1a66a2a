#!/usr/bin/env python3
"""Checker protocol v1 adapter for the path check of ``starlette``'s
``StaticFiles`` (PyPI ``starlette``):

    python3 adapters/pypi/starlette_staticfiles.py

The call and why: ``StaticFiles(directory=ROOT)`` serves a directory; for a
request it runs ``get_path(scope)`` (the URL path split on ``/``,
``os.path.join``-ed and ``normpath``-ed) and then ``lookup_path(path)``,
which ``realpath``s the join and the directory (the default
``follow_symlink=False``), refuses what ``os.path.commonpath`` does not put
under the directory, and ``stat``s the result; ``("", None)`` means 404.
That pair is the whole containment check of the package, so the checker:

  - each root URI becomes a directory (``_common.root_paths``);
  - the request's path is split at the root's text
    (``_common.relative_part``), and the rest becomes the request scope's
    ``path`` (``"/" + rest``), as a mount at ``/`` sees it;
  - allowed when ``lookup_path(get_path(scope))`` finds an entry, with
    ``use`` the full path it returned (what ``FileResponse`` opens).

``StaticFiles`` only reads: a write is denied (reason: read-only), which
rootguard counts as overblocks, not defects of the check.
"""

from starlette.staticfiles import StaticFiles

from _common import relative_part, root_paths, serve


def check(roots, path, op):
    if op != "read":
        return {"allowed": False, "reason": "StaticFiles serves reads only"}
    for root in root_paths(roots):
        rest = relative_part(path, root)
        if rest is None:
            continue
        app = StaticFiles(directory=root, check_dir=False)
        scope = {"type": "http", "method": "GET", "path": "/" + rest, "root_path": ""}
        full, stat = app.lookup_path(app.get_path(scope))
        if stat is not None:
            return {"allowed": True, "use": full, "reason": f"lookup_path -> {full!r}"}
    return {"allowed": False, "reason": "lookup_path found nothing under any root"}


if __name__ == "__main__":
    import importlib.metadata, sys
    sys.stderr.write(f"starlette {importlib.metadata.version('starlette')}\n")
    serve(check)
