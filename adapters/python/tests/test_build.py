"""The in-tree build backend makes a wheel pip can trust and an sdist that holds what a wheel needs."""

import base64
import hashlib
import os
import pathlib
import sys
import tarfile
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "build_backend"))
sys.path.insert(0, os.path.join(HERE, "src"))

import rootguard_build  # noqa: E402
import rootguard_protocol  # noqa: E402

VERSION = rootguard_protocol.__version__
DIST_INFO = f"rootguard_protocol-{VERSION}.dist-info"


class Wheel(unittest.TestCase):
    def build(self, hook):
        out = tempfile.TemporaryDirectory()
        self.addCleanup(out.cleanup)
        name = hook(out.name)
        self.assertEqual(name, f"rootguard_protocol-{VERSION}-py3-none-any.whl")
        return zipfile.ZipFile(os.path.join(out.name, name))

    def assert_record_matches(self, whl):
        record = whl.read(f"{DIST_INFO}/RECORD").decode().splitlines()
        listed = {}
        for row in record:
            name, digest, size = row.split(",")
            listed[name] = (digest, size)
        self.assertEqual(sorted(listed), sorted(whl.namelist()))
        for name, (digest, size) in listed.items():
            if name.endswith("/RECORD"):
                self.assertEqual((digest, size), ("", ""))
                continue
            data = whl.read(name)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            self.assertEqual((digest, size), (f"sha256={want}", str(len(data))), name)
        self.assertEqual(whl.namelist()[-1], f"{DIST_INFO}/RECORD")

    def test_the_wheel_holds_the_module_and_true_metadata(self):
        whl = self.build(rootguard_build.build_wheel)
        with open(os.path.join(HERE, "src", "rootguard_protocol.py"), "rb") as f:
            self.assertEqual(whl.read("rootguard_protocol.py"), f.read())
        metadata = whl.read(f"{DIST_INFO}/METADATA").decode()
        self.assertIn("Name: rootguard-protocol\n", metadata)
        self.assertIn(f"Version: {VERSION}\n", metadata)
        self.assertIn("License: MIT OR Apache-2.0\n", metadata)
        self.assertIn("\n\n# rootguard-protocol", metadata)  # the README as the description
        self.assertIn("Root-Is-Purelib: true", whl.read(f"{DIST_INFO}/WHEEL").decode())
        self.assert_record_matches(whl)

    def test_the_editable_wheel_points_at_this_checkout(self):
        whl = self.build(rootguard_build.build_editable)
        self.assertEqual(whl.read("rootguard_protocol.pth").decode(), os.path.join(HERE, "src") + "\n")
        self.assert_record_matches(whl)

    def test_builds_are_reproducible(self):
        first = self.build(rootguard_build.build_wheel)
        second = self.build(rootguard_build.build_wheel)
        self.assertEqual(pathlib.Path(first.filename).read_bytes(), pathlib.Path(second.filename).read_bytes())


class Sdist(unittest.TestCase):
    def test_the_sdist_holds_the_sources_tests_and_backend(self):
        with tempfile.TemporaryDirectory() as out:
            name = rootguard_build.build_sdist(out)
            self.assertEqual(name, f"rootguard_protocol-{VERSION}.tar.gz")
            with tarfile.open(os.path.join(out, name)) as sdist:
                names = set(sdist.getnames())
        top = f"rootguard_protocol-{VERSION}"
        for member in ("PKG-INFO", "pyproject.toml", "README.md", "build_backend/rootguard_build.py",
                       "src/rootguard_protocol.py", "tests/test_build.py"):
            self.assertIn(f"{top}/{member}", names)


if __name__ == "__main__":
    unittest.main()
