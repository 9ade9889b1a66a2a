"""A small MCP archive server of rootguard's own, for testing `rootguard
mcp`'s zip-slip attacks (docs/mcp-doors.md, "Git and archives").

Stdlib only; doors_server.py's JSON-RPC over stdio (revision
2025-11-25) and roots. Its allowed directories are its arguments. One tool,
`extract_archive(archive_path, destination)`, extracts a zip or a tar:
both paths are resolved and compared component-wise with each allowed
directory. What differs is how each entry is written:

- `Server.sound` false (zipslip_server.py): the entry's name joined to
  the destination and written there, a link entry made a link, as a
  hand-written extractor does;
- `Server.sound` true (archive_sound_server.py): link entries refused,
  each entry's target resolved and refused unless it is beneath the
  destination, then created with O_NOFOLLOW | O_EXCL.
"""

import os
import stat
import sys
import tarfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doors_server  # noqa: E402


class Server(doors_server.Server):
    """doors_server's JSON-RPC, roots and loop, with one tool of its own."""
    tools = True
    sound = True
    name = "rootguard-archive"

    @staticmethod
    def beneath(path, root):
        return path == root or path.startswith(root.rstrip("/") + "/")

    def inside(self, value, what):
        if not isinstance(value, str) or not os.path.isabs(value):
            raise ValueError("%s must be an absolute path" % what)
        real = os.path.realpath(value)
        if not any(self.beneath(real, r) for r in self.allowed):
            raise PermissionError("%s %s is outside the allowed directories" % (what, value))
        return real

    def entries(self, path):
        """(name, link target or None, bytes) of each entry."""
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                for info in z.infolist():
                    data = z.read(info)
                    link = stat.S_ISLNK(info.external_attr >> 16)
                    yield info.filename, (data.decode() if link else None), data
        else:
            with tarfile.open(path) as t:
                for m in t.getmembers():
                    if m.issym():
                        yield m.name, m.linkname, b""
                    elif m.isfile():
                        yield m.name, None, t.extractfile(m).read()

    def extract(self, archive, dest):
        count = 0
        for name, link, data in self.entries(archive):
            target = os.path.join(dest, name)
            if self.sound:
                if link is not None:
                    raise PermissionError("the link entry %s is not extracted" % name)
                real = os.path.realpath(target)
                if not self.beneath(real, dest):
                    raise PermissionError("the entry %s leads out of %s" % (name, dest))
                os.makedirs(os.path.dirname(real), exist_ok=True)
                fd = os.open(real, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
            elif link is not None:
                os.symlink(link, target)
            else:
                # BUG: the entry's name is trusted: `../`, an absolute name, a link on the way.
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as f:
                    f.write(data)
            count += 1
        return "Extracted %d entries" % count

    def call_tool(self, mid, params):
        name, args = params.get("name"), params.get("arguments") or {}
        if name != "extract_archive":
            self.error(mid, -32602, "Unknown tool: %s" % name)
            return
        try:
            archive = self.inside(args.get("archive_path"), "archive_path")
            dest = self.inside(args.get("destination"), "destination")
            text, failed = self.extract(archive, dest), False
        except (ValueError, PermissionError, OSError, zipfile.BadZipFile, tarfile.TarError) as e:
            text, failed = "Error: %s" % e, True
        self.text_result(mid, text, failed)

    def tool_list(self):
        text = {"type": "string"}
        return [{"name": "extract_archive", "description": "Extract a zip or tar archive",
                 "inputSchema": {"type": "object", "required": ["archive_path", "destination"],
                                 "properties": {"archive_path": text, "destination": text}}}]


def main(cls=Server):
    """Serves stdio as a `cls`; the allowed directories are the arguments."""
    doors_server.main(cls)


if __name__ == "__main__":
    main()
