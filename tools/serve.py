"""Serve a folder over HTTP on 127.0.0.1 with the right types for the Pyodide runtime.

    python3 tools/serve.py [--dir site] [--port 8000]

Any static host works for Boneyard; this one exists so that ``make serve`` and the browser tests need
nothing but Python. It sends ``.mjs``/``.wasm``/``.webmanifest`` with their proper types and
``Cache-Control: no-cache`` so a rebuilt site is seen at once (the service worker does the caching).
Where the build wrote a gzip copy beside a file (``x.wasm.gz``) and the browser accepts gzip, it sends
that copy with ``Content-Encoding: gzip``, as nginx's ``gzip_static`` does (but never a copy older than
its file, which was changed after the build); the browser unpacks it
before anything sees the body (the WebAssembly still streams in as ``application/wasm``).
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".webmanifest": "application/manifest+json",
    ".toml": "application/toml",
    ".py": "text/x-python",
    ".json": "application/json",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
}


class Handler(SimpleHTTPRequestHandler):
    """Static files with fixed types, no-cache, gzip copies where the build made them, and quiet logs."""

    extensions_map: ClassVar[dict[str, str]] = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def accepts_gzip(self) -> bool:
        """Tell whether the request accepts a gzip-encoded body."""
        codings = self.headers.get("Accept-Encoding", "")
        return any(part.split(";")[0].strip() in ("gzip", "*") for part in codings.split(","))

    def send_head(self):
        """Send the gzip copy of a file where there is one and the browser takes it, else as usual."""
        path = self.translate_path(self.path)
        packed = path + ".gz"
        if (
            self.headers.get("Range")
            or not os.path.isfile(path)
            or not os.path.isfile(packed)
            or os.path.getmtime(packed) < os.path.getmtime(path)
            or not self.accepts_gzip()
        ):
            return super().send_head()  # no copy, or one older than its file (changed since the build)
        source = open(packed, "rb")  # noqa: SIM115 - closed by the caller, as in the base class
        try:
            stat = os.fstat(source.fileno())
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
            self.send_header("Content-Length", str(stat.st_size))
            self.send_header("Last-Modified", email.utils.formatdate(os.stat(path).st_mtime, usegmt=True))
            self.end_headers()
            return source
        except BaseException:
            source.close()
            raise

    def copyfile(self, source, outputfile) -> None:
        """Send a file with the kernel's sendfile where the stream is a socket (far less CPU than copying)."""
        try:
            self.connection.sendfile(source)
        except (AttributeError, OSError, ValueError):
            super().copyfile(source, outputfile)

    def log_message(self, format: str, *args) -> None:
        pass


class Server(ThreadingHTTPServer):
    """A threading HTTP server that says nothing when a browser drops a connection (page closed)."""

    def handle_error(self, request, client_address) -> None:
        import sys

        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def make_server(directory: Path | str, port: int = 0, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """Return a server for ``directory`` bound to host:port (port 0 picks a free one)."""
    handler = functools.partial(Handler, directory=str(directory))
    server = Server((host, port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(directory: Path | str, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Start a server in a daemon thread; return it and its base URL."""
    server = make_server(directory, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def main() -> None:
    """Serve until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=str(Path(__file__).resolve().parent.parent / "site"))
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    server = make_server(args.dir, args.port)
    print(
        f"Boneyard is being served at http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C stops it)",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
