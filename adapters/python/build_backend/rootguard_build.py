"""The build backend of rootguard-protocol (PEP 517, PEP 660), standard library only.

pip runs it in place of setuptools, which it would otherwise download first:
the package is one pure-Python module, and a wheel is a zip file with three
metadata files beside it. Builds are reproducible (fixed timestamps, sorted
entries).
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

NAME = "rootguard-protocol"
MODULE = "rootguard_protocol"
SUMMARY = "rootguard's checker protocol v1 for Python: vet a path-boundary check with three lines"
LICENSE = "MIT OR Apache-2.0"
REQUIRES_PYTHON = ">=3.8"
CLASSIFIERS = (
    "Development Status :: 4 - Beta",
    "Intended Audience :: Developers",
    "Operating System :: POSIX",
    "Programming Language :: Python :: 3",
    "Topic :: Security",
    "Topic :: Software Development :: Testing",
)
# What an sdist holds, relative to the project directory.
SDIST_FILES = ("pyproject.toml", "README.md", "build_backend/rootguard_build.py", f"src/{MODULE}.py")
SDIST_DIRS = ("tests",)
# The zip epoch: wheels carry no build time.
EPOCH = (1980, 1, 1, 0, 0, 0)

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _read(relative: str) -> bytes:
    with open(os.path.join(HERE, relative), "rb") as f:
        return f.read()


def _version() -> str:
    """The module's own `__version__`, the one place the version is written."""
    found = re.search(rb'^__version__ = "([^"]+)"$', _read(f"src/{MODULE}.py"), re.M)
    if not found:
        raise RuntimeError(f"src/{MODULE}.py has no __version__ = \"...\" line")
    return found.group(1).decode("ascii")


def _metadata() -> bytes:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {_version()}",
        f"Summary: {SUMMARY}",
        f"License: {LICENSE}",
        f"Requires-Python: {REQUIRES_PYTHON}",
        *(f"Classifier: {c}" for c in CLASSIFIERS),
        "Description-Content-Type: text/markdown",
    ]
    return ("\n".join(lines) + "\n\n").encode("utf-8") + _read("README.md")


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def _wheel(wheel_directory: str, payload: dict) -> str:
    """Writes a py3-none-any wheel holding `payload` (name -> bytes); its file name."""
    version = _version()
    dist_info = f"{MODULE}-{version}.dist-info"
    files = dict(payload)
    files[f"{dist_info}/METADATA"] = _metadata()
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: rootguard_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = [_record_line(name, data) for name, data in sorted(files.items())]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    basename = f"{MODULE}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, basename), "w", zipfile.ZIP_DEFLATED) as whl:
        for name, data in files.items():  # RECORD last, as the wheel spec asks
            info = zipfile.ZipInfo(name, EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
    return basename


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 517: the wheel of the module."""
    return _wheel(wheel_directory, {f"{MODULE}.py": _read(f"src/{MODULE}.py")})


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 660: a wheel whose .pth file puts this checkout's src/ on sys.path."""
    src = os.path.join(HERE, "src")
    return _wheel(wheel_directory, {f"{MODULE}.pth": (src + "\n").encode("utf-8")})


def build_sdist(sdist_directory, config_settings=None):
    """PEP 517: the source distribution (what a wheel is built from)."""
    top = f"{MODULE}-{_version()}"
    members = list(SDIST_FILES)
    for directory in SDIST_DIRS:
        for name in sorted(os.listdir(os.path.join(HERE, directory))):
            if name.endswith(".py"):
                members.append(f"{directory}/{name}")
    contents = {f"{top}/PKG-INFO": _metadata()}
    contents.update((f"{top}/{m}", _read(m)) for m in members)
    basename = f"{top}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, basename), "w:gz", format=tarfile.PAX_FORMAT) as sdist:
        for name, data in sorted(contents.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            sdist.addfile(info, io.BytesIO(data))
    return basename
