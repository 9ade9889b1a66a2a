#!/usr/bin/env python3
"""Checker protocol v1 adapter for the path check of ``tornado``'s
``StaticFileHandler`` (PyPI ``tornado``):

    python3 adapters/pypi/tornado_staticfilehandler.py

The call and why: ``StaticFileHandler.get(path)`` validates with exactly
``self.path = self.parse_url_path(path)``, ``absolute_path =
self.get_absolute_path(self.root, self.path)`` (documented to raise 403 for
a path outside ``root`` "as written") and ``self.absolute_path =
self.validate_absolute_path(self.root, absolute_path)`` (documented: links
resolved, the result must stay in ``allowed_symlink_directory``, by
default the root; 404 for a missing file, 403 for anything not a regular
file). The checker runs those three calls on a real handler
(``StaticFileHandler(Application(), HTTPServerRequest(...), path=ROOT)``,
defaults otherwise):

  - each root URI becomes a directory (``_common.root_paths``);
  - the request's path is split at the root's text
    (``_common.relative_part``): the rest is the URL's path argument;
  - allowed when ``validate_absolute_path`` returns a path, which is
    ``use`` (the file ``get_content`` opens); an ``HTTPError`` is a denial.

The handler only reads: a write is denied (reason: read-only), which
rootguard counts as overblocks. So is a directory (no ``default_filename``).
"""

from unittest import mock

import tornado
from tornado.httputil import HTTPServerRequest, RequestStartLine
from tornado.web import Application, HTTPError, StaticFileHandler

from _common import relative_part, root_paths, serve

APP = Application()


def check(roots, path, op):
    if op != "read":
        return {"allowed": False, "reason": "StaticFileHandler serves reads only"}
    why = "no root's text begins the path"
    for root in root_paths(roots):
        rest = relative_part(path, root)
        if rest is None:
            continue
        request = HTTPServerRequest(start_line=RequestStartLine("GET", "/static/", "HTTP/1.1"), connection=mock.Mock())
        handler = StaticFileHandler(APP, request, path=root)
        try:
            handler.path = handler.parse_url_path(rest)
            absolute = handler.get_absolute_path(handler.root, handler.path)
            validated = handler.validate_absolute_path(handler.root, absolute)
        except HTTPError as e:
            why = f"HTTPError {e.status_code}: {e.log_message % e.args if e.log_message else ''}"
            continue
        if validated is not None:
            return {"allowed": True, "use": validated, "reason": f"validate_absolute_path -> {validated!r}"}
    return {"allowed": False, "reason": why}


if __name__ == "__main__":
    import sys
    sys.stderr.write(f"tornado {tornado.version} from {tornado.__file__}\n")
    serve(check)
