"""A static host on 127.0.0.1 for benchmarks/browser.py: the bytes a reader's browser is sent.

It serves a folder as a static host such as GitHub Pages does: text,
JavaScript, style sheets, JSON and WebAssembly compressed with gzip when the
browser accepts it (each file compressed once, kept in memory), files
already compressed (fonts, zips, ``.gz``) as they are, every reply with
``Cache-Control: max-age=600``, connections kept open (HTTP/1.1). It counts
the bytes of every reply's body as sent, by path.
"""

from __future__ import annotations

import gzip
import mimetypes
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

COMPRESSED = {".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".txt", ".xml", ".ico"}
"""What a static host sends compressed (by the file's suffix); the rest goes as it is."""
CACHE_SECONDS = 600  # what GitHub Pages sends


@dataclass
class Sent:
    """The replies of one visit: (path, bytes of the body as sent, compressed or not), in order."""

    replies: list[tuple[str, int, bool]] = field(default_factory=list)
    asked: list[float] = field(default_factory=list)
    """When each reply's request came (ms since the epoch)."""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, path: str, size: int, compressed: bool, asked: float = 0.0) -> None:
        with self._lock:
            self.replies.append((path, size, compressed))
            self.asked.append(asked)

    def take(self, asked_by: float | None = None) -> list[tuple[str, int, bool]]:
        """The replies counted since the last call; with ``asked_by`` (ms since the epoch), only
        those asked for by then, the others kept for the next call."""
        with self._lock:
            keep = [asked_by is not None and at > asked_by for at in self.asked]
            replies = [r for r, later in zip(self.replies, keep, strict=True) if not later]
            self.replies = [r for r, later in zip(self.replies, keep, strict=True) if later]
            self.asked = [at for at, later in zip(self.asked, keep, strict=True) if later]
            return replies


class _Host(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, folder: Path) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.folder = folder.resolve()
        self.sent = Sent()
        self.gzipped: dict[Path, tuple[float, bytes]] = {}
        self.gzip_lock = threading.Lock()

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # the browser closed a page while a file was on its way

    def body(self, path: Path, compress: bool) -> bytes:
        data = path.read_bytes()
        if not compress:
            return data
        mtime = path.stat().st_mtime
        with self.gzip_lock:
            kept = self.gzipped.get(path)
            if kept is None or kept[0] != mtime:
                kept = (mtime, gzip.compress(data, compresslevel=6, mtime=0))
                self.gzipped[path] = kept
        return kept[1]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Host

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._reply(with_body=True)

    def do_HEAD(self) -> None:
        self._reply(with_body=False)

    def _reply(self, with_body: bool) -> None:
        asked = time.time() * 1000
        name = unquote(urlsplit(self.path).path)
        path = (self.server.folder / name.lstrip("/")).resolve()
        if path.is_dir():
            path = path / "index.html"
        if self.server.folder not in path.parents or not path.is_file():
            self.send_error(404)
            return
        compress = (path.suffix in COMPRESSED
                    and "gzip" in self.headers.get("Accept-Encoding", ""))
        data = self.server.body(path, compress)
        self.send_response(200)
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".wasm":
            kind = "application/wasm"
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", f"max-age={CACHE_SECONDS}")
        if compress:
            self.send_header("Content-Encoding", "gzip")
        self.end_headers()
        if not with_body:
            return
        self.wfile.write(data)
        self.server.sent.add(name, len(data), compress, asked)


@contextmanager
def static_host(folder: Path) -> Iterator[tuple[str, Sent]]:
    """Serve ``folder`` on a free port of 127.0.0.1; yields the base URL and its count of bytes sent."""
    host = _Host(folder)
    thread = threading.Thread(target=host.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{host.server_address[1]}", host.sent
    finally:
        host.shutdown()
        host.server_close()
        thread.join(timeout=5)

