"""Serve a folder over HTTP on 127.0.0.1 with the right types for the Pyodide runtime.

    python3 tools/serve.py [--dir site] [--port 8000]

Any static host works for Boneyard; this one exists so that ``make serve`` and the browser tests need
nothing but Python. It sends ``.mjs``/``.wasm``/``.webmanifest`` with their proper types and
``Cache-Control: no-cache`` so a rebuilt site is seen at once (the service worker does the caching).
"""

from __future__ import annotations

import argparse
import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

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
    """Static files with fixed types, no-cache, and quiet logs."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass


def make_server(directory: Path | str, port: int = 0, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """Return a server for ``directory`` bound to host:port (port 0 picks a free one)."""
    handler = functools.partial(Handler, directory=str(directory))
    server = ThreadingHTTPServer((host, port), handler)
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
    print(f"Boneyard is being served at http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
