"""The test broker for online rooms: the ``peer`` npm package's PeerJS server on 127.0.0.1.

A test module takes the fixture with ``from .peer import peer_broker  # noqa: F401`` and points its pages
at the broker with :func:`online_settings_script` (a settings entry written before the page loads), so
every WebRTC connection of the tests stays on this machine: the config has no STUN/TURN servers, and two
browser contexts connect through their host candidates.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PEER_PACKAGE = ROOT / "node_modules" / "peer"
START_TIMEOUT_S = 20.0
START_TRIES = 3  # brokers started in all, each at a new free port, before the run fails


def peer_server_script() -> Path:
    """Return the ``peer`` package's command-line script (its ``bin`` entry), or fail the test run."""
    manifest = PEER_PACKAGE / "package.json"
    if not manifest.exists():
        pytest.fail("node_modules/peer is missing: run `npm ci` (make test does)", pytrace=False)
    bin_entry = json.loads(manifest.read_text())["bin"]
    relative = bin_entry if isinstance(bin_entry, str) else bin_entry["peerjs"]
    return PEER_PACKAGE / relative


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_answering(config: dict[str, Any], process: subprocess.Popen[bytes]) -> None:
    """Wait until the broker hands out peer ids over HTTP (its ``/<key>/id`` route), or fail."""
    url = f"http://{config['host']}:{config['port']}/{config['key']}/id"
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the peer broker exited at start (code {process.returncode})", pytrace=False)
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                if answer.status == 200 and answer.read().strip():
                    return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"the peer broker did not answer at {url} within {START_TIMEOUT_S:.0f} s", pytrace=False)


def die_with_parent() -> None:
    """Ask Linux to stop this (child) process when its parent dies, so a killed test run leaves no broker."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def start_broker(port: int | None = None) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
    """Start a PeerJS server on 127.0.0.1; return the process and the page's config for it."""
    port = port or free_port()
    config: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": port,
        "path": "/",
        "secure": False,
        "key": "peerjs",
        "iceServers": [],
    }
    command = ["node", str(peer_server_script()), "--host", "127.0.0.1", "--port", str(port)]
    command += ["--key", config["key"], "--path", config["path"]]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ},
        preexec_fn=die_with_parent if sys.platform == "linux" else None,
    )
    try:
        wait_until_answering(config, process)
    except BaseException:
        stop_broker(process)
        raise
    return process, config


def stop_broker(process: subprocess.Popen[bytes]) -> None:
    """Stop a broker started by :func:`start_broker` (the process we started, by its handle)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


@pytest.fixture(scope="session")
def peer_broker() -> Iterator[dict[str, Any]]:
    """Run the PeerJS broker on 127.0.0.1 at a free port for the session; yield the page's config for it.

    Under pytest-xdist each worker runs its own: a port that another process took between our probe and
    the broker's start is tried again with a new one.
    """
    for attempt in range(1, START_TRIES + 1):
        try:
            process, config = start_broker()
            break
        except pytest.fail.Exception:
            if attempt == START_TRIES:
                raise
    yield config
    stop_broker(process)


def online_settings_script(config: dict[str, Any]) -> str:
    """Return an init script that points the page's Settings > Online at ``config`` before it loads.

    It merges the broker into the saved settings (``boneyard:settings`` in localStorage), keeping the
    rest; ``context.add_init_script(online_settings_script(peer_broker))`` before the first page."""
    online = {
        "online_host": config["host"],
        "online_port": config["port"],
        "online_path": config["path"],
        "online_secure": config["secure"],
        "online_key": config["key"],
        "online_ice": "none" if not config.get("iceServers") else "default",
    }
    return f"""
(() => {{
  try {{
    const saved = JSON.parse(localStorage.getItem("boneyard:settings") || "null") || {{}};
    const settings = Object.assign({{}}, saved.settings || {{}}, {json.dumps(online)});
    const record = Object.assign({{schema: 1}}, saved, {{settings}});
    localStorage.setItem("boneyard:settings", JSON.stringify(record));
  }} catch (e) {{}}
}})();
"""
