#!/usr/bin/env python3
"""Checker protocol v1 adapter for ``django.utils._os.safe_join`` (PyPI
``Django``):

    python3 adapters/pypi/django_safe_join.py

The call and why: ``safe_join(base, *paths)`` is Django's containment
helper ("Raise SuspiciousFileOperation if the final path isn't located
inside of the base path component"), the check behind
``FileSystemStorage.path(name)`` (every read and save of a storage file)
and the filesystem template loaders. It joins with ``os.path.join``, so an
absolute path is judged as it is: the checker calls
``safe_join(root, path)`` with the request's path unchanged, for each root
(``_common.root_paths``: urlsplit + url2pathname), allowed when one does
not raise; the caller then operates on the path it returned (``use``: the
``abspath`` of the join, ``..`` removed as text).

The module is private (``_os``), but it is the one Django's storage and
loaders call, and is often imported by applications for the same job. It
is lexical (``abspath``, ``normcase``, a prefix with a separator): it looks
at no link, by design. Reads and writes are judged alike, as
``FileSystemStorage`` judges opening and saving alike.
"""

import django
from django.core.exceptions import SuspiciousFileOperation
from django.utils._os import safe_join

from _common import root_paths, serve


def check(roots, path, op):
    for root in root_paths(roots):
        try:
            final = safe_join(root, path)
        except SuspiciousFileOperation:
            continue
        return {"allowed": True, "use": final, "reason": f"safe_join({root!r}, path) = {final!r}"}
    return {"allowed": False, "reason": "safe_join raised SuspiciousFileOperation under every root"}


if __name__ == "__main__":
    import sys
    sys.stderr.write(f"Django {django.get_version()} from {django.__file__}\n")
    serve(check)
