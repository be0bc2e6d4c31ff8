"""Settings > Online: the broker's fields are validated one by one, old records load, the config is right."""

from __future__ import annotations

import json

from boneyard.settings import Settings, settings_from_json
from ui import settings_view


def test_old_records_load_with_the_public_broker():
    old = settings_from_json({"name": "Ana", "theme": "dark", "hints": False})  # a record from before Online
    assert (old.name, old.theme, old.hints) == ("Ana", "dark", False)
    assert old.online_host == "" and old.online_config() == {}
    assert old.online_broker() == "PeerJS's public broker"
    assert settings_from_json(json.loads(json.dumps(old.to_json()))) == old


def test_a_local_broker_gives_the_config_js_online_takes():
    s = Settings().replace(
        online_host=" 127.0.0.1 ",
        online_port="9000",
        online_path="peer",
        online_secure=False,
        online_key="boneyard",
        online_ice="none",
    )
    assert s.online_config() == {
        "host": "127.0.0.1",
        "port": 9000,
        "path": "/peer",
        "secure": False,
        "key": "boneyard",
        "iceServers": [],
    }
    assert s.online_broker() == "ws://127.0.0.1:9000/peer"
    assert Settings(online_ice="none").online_config() == {"iceServers": []}  # public broker, no STUN/TURN


def test_bad_values_fall_back_one_by_one():
    s = settings_from_json(
        {
            "online_host": "not a host",
            "online_port": "70000",
            "online_path": "/a b",
            "online_key": 'k"<',
            "online_secure": "yes",
            "online_ice": "all",
        }
    )
    assert (s.online_host, s.online_port, s.online_path) == ("", 443, "/")
    assert (s.online_key, s.online_secure, s.online_ice) == ("peerjs", True, "default")
    for port in (0, -1, True, 1.5, "", "80a"):
        assert settings_from_json({"online_port": port}).online_port == 443
    assert settings_from_json({"online_port": 65535}).online_port == 65535
    assert settings_from_json({"online_host": "Broker.Example.ORG."}).online_host == "broker.example.org"
    assert settings_from_json({"online_host": "[::1]"}).online_host == "[::1]"
    assert settings_from_json({"online_host": "-bad-.org"}).online_host == ""
    assert settings_from_json({"online_host": "a" * 254}).online_host == ""


def test_a_whole_address_typed_as_the_broker_is_split():
    s = Settings().replace(online_host="https://Peer.Example.org:9000/rooms")
    assert (s.online_host, s.online_port, s.online_path, s.online_secure) == (
        "peer.example.org",
        9000,
        "/rooms",
        True,
    )
    s = Settings().replace(online_host="ws://10.0.0.2")
    assert (s.online_host, s.online_port, s.online_path, s.online_secure) == ("10.0.0.2", 80, "/", False)
    assert s.online_broker() == "ws://10.0.0.2/"
    assert Settings().replace(online_host="https://x:99999/").online_host == ""  # a bad port: no broker


def test_the_settings_screen_shows_online_and_the_hints_switch():
    html = str(settings_view.settings_screen(Settings(), False, []))
    assert ">Online</h2>" in html and 'id="set-online-host"' in html and 'data-setting="online_host"' in html
    assert "PeerJS&#x27;s public broker" in html and "npx peer --port 9000" in html
    assert '<details class="online-details">' in html  # closed while the public broker is used
    assert 'id="set-hints" type="checkbox" data-setting="hints" checked' in html
    own = str(
        settings_view.settings_screen(
            Settings(online_host="127.0.0.1", online_port=9000, online_secure=False), False, []
        )
    )
    assert '<details class="online-details" open>' in own and 'value="9000"' in own
    assert "ws://127.0.0.1:9000/" in own
    for fid in ("host", "port", "path", "key"):
        assert f'id="set-online-{fid}-hint"' in own and f'aria-describedby="set-online-{fid}-hint"' in own
