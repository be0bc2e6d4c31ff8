"""The wire schema of online rooms: what parses, what is refused and why, codes and tokens."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.rooms import protocol
from boneyard.rooms.protocol import ProtocolError, encode, normalize_code, parse

HEX = "ab" * 32


def test_guest_messages_round_trip():
    for kind, fields in [
        ("hello", {"name": "Ana", "v": 1}),
        ("hello", {"name": "Ana", "v": 1, "token": "x" * 22}),
        ("move", {"move": "6-4@L", "turn_number": 3}),
        ("chat", {"text": "hi"}),
        ("react", {"key": "thumbs"}),
        ("commit", {"hash": HEX}),
        ("reveal", {"nonce": HEX}),
        ("leave", {}),
    ]:
        message = parse(encode(kind, sender="guest", **fields), sender="guest")
        assert message.kind == kind
        assert dict(message.fields) == fields


def test_host_messages_round_trip():
    view = {"game": "dominoes", "seat": 1, "turn_number": 0, "hand": ["6-6"]}
    for kind, fields in [
        (
            "welcome",
            {
                "seat": 1,
                "token": "t" * 22,
                "code": "ABCDEFGH",
                "game": "dominoes",
                "mode": None,
                "options": {"players": 2},
            },
        ),
        (
            "lobby",
            {
                "seats": [
                    {"seat": 0, "name": "Host", "kind": "host", "status": "connected"},
                    {"seat": 1, "name": None, "kind": "bot", "level": "hard", "status": "connected"},
                ],
                "start_ok": True,
            },
        ),
        ("commit_ask", {}),
        ("reveal_ask", {"commits": [HEX, HEX]}),
        ("view", {"view": view}),
        ("refused", {"reason": "not your turn"}),
        ("chat", {"seat": 0, "name": "Host", "text": "hello"}),
        ("react", {"seat": 2, "key": "domino"}),
        ("seat", {"seat": 1, "status": "reconnecting"}),
        ("deal", {"commits": [HEX], "nonces": [HEX], "seed": 5, "moves": ["6-6"]}),
        ("host_left", {}),
        ("removed", {"reason": "the host removed you"}),
        ("error", {"reason": "say hello first"}),
    ]:
        message = parse(encode(kind, **fields), sender="host")
        assert message.kind == kind
        assert dict(message.fields) == fields


def test_encode_picks_the_side_by_fields():
    assert parse(encode("chat", text="x"), sender="guest")["text"] == "x"
    assert parse(encode("chat", seat=1, name="B", text="x"), sender="host")["seat"] == 1
    with pytest.raises(ProtocolError):
        encode("nonsense")
    with pytest.raises(ProtocolError):
        encode("move", move="x")  # no turn_number


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "not JSON"),
        ("[]", "JSON object"),
        ('{"t": "dance"}', "unknown message kind"),
        ('{"x": 1}', "no kind"),
        ('{"t": "move", "move": "6-4", "turn_number": 1, "extra": 1}', "unknown field"),
        ('{"t": "move", "move": "6-4"}', "no turn_number"),
        ('{"t": "move", "move": "6-4", "turn_number": true}', "whole number"),
        ('{"t": "move", "move": "6-4", "turn_number": 1.0}', "whole number"),
        ('{"t": "move", "move": "6-4", "turn_number": -1}', "whole number"),
        ('{"t": "move", "move": 7, "turn_number": 1}', "string"),
        ('{"t": "move", "move": "' + "x" * 81 + '", "turn_number": 1}', "too long"),
        ('{"t": "chat", "text": "   "}', "empty"),
        ('{"t": "chat", "text": "' + "y" * 201 + '"}', "too long"),
        ('{"t": "react", "key": "poop"}', "one of"),
        ('{"t": "commit", "hash": "AB"}', "well formed"),
        ('{"t": "hello", "name": "", "v": 1}', "empty"),
        ('{"t": "hello", "name": "' + "n" * 25 + '", "v": 1}', "too long"),
        ('{"t": "hello", "name": "a", "v": 1, "token": "short"}', "well formed"),
        ('{"t": "welcome", "seat": 1}', "unknown message kind"),  # a host kind from a guest
        ('{"t": "leave", "n": NaN}', "not JSON"),
        ('{"t": "move", "move": "6-4", "turn_number": 1' + "0" * 30 + "}", "whole number"),
        ('{"t": "move", "move": "6-4", "turn_number": 1' + "0" * 4000 + "}", "whole number"),
    ],
)
def test_guest_junk_is_refused_with_a_reason(text, reason):
    with pytest.raises(ProtocolError) as caught:
        parse(text, sender="guest")
    assert reason in caught.value.reason


def test_size_limits():
    with pytest.raises(ProtocolError, match="too long"):
        parse('{"t":"leave"}' + " " * protocol.MAX_FROM_GUEST, sender="guest")
    big = json.dumps({"t": "view", "view": {"game": "g", "seat": 0, "turn_number": 0, "pad": "x" * 60000}})
    assert parse(big, sender="host").kind == "view"
    with pytest.raises(ProtocolError, match="too long"):
        parse(big.replace("x" * 60000, "x" * 70000), sender="host")


def test_a_number_too_long_for_python_is_refused():
    text = '{"t": "view", "view": {"game": "g", "seat": 0, "turn_number": 0, "n": 1' + "0" * 5000 + "}}"
    with pytest.raises(ProtocolError, match="not JSON"):
        parse(text, sender="host")


def test_deep_nesting_is_refused():
    deep = (
        '{"t": "view", "view": {"game": "g", "seat": 0, "turn_number": 0, "x": '
        + "[" * 5000
        + "]" * 5000
        + "}}"
    )
    with pytest.raises(ProtocolError, match="nested"):
        parse(deep, sender="host")
    with pytest.raises(ProtocolError, match="nested"):  # refused before the parser could recurse
        parse(("[" * 60000 + "]" * 5000)[:65536], sender="host")
    with pytest.raises(ProtocolError, match="not JSON"):
        parse("[" * 65000, sender="host")
    with pytest.raises(ProtocolError, match="nested"):
        parse("[" * 2000 + "]" * 2000, sender="guest")
    quoted = '{"t": "chat", "text": "' + "[" * 90 + '\\"' + "{" * 90 + '"}'
    assert parse(quoted, sender="guest")["text"].startswith("[[[")  # brackets inside strings do not count


def test_chat_and_names_are_cleaned():
    message = parse(json.dumps({"t": "chat", "text": "  hi\u202e\n\tthere\x00\x07  "}), sender="guest")
    assert message["text"] == "hi there"
    hello = parse(json.dumps({"t": "hello", "name": "\u2066Bo\u2069 b", "v": 1}), sender="guest")
    assert hello["name"] == "Bo b"
    markup = parse(json.dumps({"t": "chat", "text": "<img src=x onerror=alert(1)>"}), sender="guest")
    assert markup["text"] == "<img src=x onerror=alert(1)>"  # kept as text: the UI shows text, never HTML
    assert parse(json.dumps({"t": "chat", "text": "🂓 döminö ✓"}), sender="guest")["text"] == "🂓 döminö ✓"


def test_codes():
    rng = random.Random(1)
    codes = {protocol.new_code(rng) for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert len(code) == 8 and set(code) <= set(protocol.CODE_ALPHABET)
        assert not set(code) & set("0O1IL")
        assert normalize_code(code.lower()) == code
        assert normalize_code(protocol.format_code(code)) == code
        assert normalize_code(f"https://example.test/boneyard/#/join/{code}") == code
    assert len(protocol.new_code()) == 8
    for bad in ["", "ABC", "ABCDEFGHJ", "ABCDEFG0", "ABCDEFGI"]:
        with pytest.raises(ValueError):
            normalize_code(bad)


def test_tokens():
    assert len(protocol.new_token()) >= 16
    token = protocol.new_token(random.Random(3))
    assert parse(encode("hello", name="a", v=1, token=token), sender="guest")["token"] == token


SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30)
JSON = SCALARS | st.lists(SCALARS, max_size=4) | st.dictionaries(st.text(max_size=8), SCALARS, max_size=3)
KINDS = sorted(set(protocol.GUEST_KINDS) | set(protocol.HOST_KINDS) | {"x"})


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["guest", "host"]))
def test_random_text_never_crashes(text, sender):
    try:
        parse(text, sender=sender)
    except ProtocolError:
        pass


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(KINDS),
    st.dictionaries(
        st.sampled_from(
            [
                "name",
                "v",
                "token",
                "move",
                "turn_number",
                "text",
                "key",
                "hash",
                "nonce",
                "seat",
                "code",
                "game",
                "mode",
                "options",
                "seats",
                "start_ok",
                "commits",
                "view",
                "reason",
                "status",
                "nonces",
                "seed",
                "moves",
                "zz",
            ]
        ),
        JSON,
        max_size=6,
    ),
    st.sampled_from(["guest", "host"]),
)
def test_random_objects_never_crash(kind, fields, sender):
    text = json.dumps({"t": kind, **fields})
    try:
        message = parse(text, sender=sender)
    except ProtocolError:
        return
    assert message.kind == kind


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=-(10**40), max_value=10**40), st.integers(min_value=1, max_value=3000))
def test_huge_numbers_and_depth(number, depth):
    for text in [
        '{"t": "move", "move": "x", "turn_number": %d}' % number,
        '{"t": "view", "view": {"game": "g", "seat": 0, "turn_number": 0, "a": %s%d%s}}'
        % ("[" * depth, number, "]" * depth),
    ]:
        for sender in ("guest", "host"):
            try:
                parse(text, sender=sender)
            except ProtocolError:
                pass


def test_non_text_input():
    for thing in [None, b"{}", 5, ["t"]]:
        with pytest.raises(ProtocolError):
            parse(thing, sender="guest")


def test_safe_name():
    assert protocol.safe_name("  Ana\u202e ", "Guest") == "Ana"
    assert protocol.safe_name("", "Guest") == "Guest"
    assert protocol.safe_name("\x00\x01", "Host") == "Host"
    assert protocol.safe_name("x" * 100, "Guest") == "x" * protocol.MAX_NAME
    assert protocol.safe_name(None, "Guest") == "None"
