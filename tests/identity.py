"""A player's key pair as the page's js/identity.js gives it (``ui.ports.Identity``), for CPython tests.

Keys and signatures are made as WebCrypto makes them (tests/test_rating.py's ``Player``). ``keyless``
stands for a browser without IndexedDB; ``forge`` makes every signature this page sends a forgery.
"""

from __future__ import annotations

import base64
import json

from boneyard.rating import Signature
from tests.test_rating import Player, verify


class FakeIdentity:
    """One browser's key pair (see the module)."""

    def __init__(self, name: str = "Ann", *, keyless: bool = False, forge: bool = False) -> None:
        self.player = Player.make(name)
        self.keyless = keyless
        self.forge = forge
        self.signed: list[str] = []  # every text signed, in order

    async def public_key(self) -> str | None:
        return None if self.keyless else self.player.key

    async def public_jwk(self) -> str | None:
        if self.keyless:
            return None
        raw = base64.urlsafe_b64decode(self.player.key + "=")
        x, y = (base64.urlsafe_b64encode(part).decode().rstrip("=") for part in (raw[1:33], raw[33:]))
        return json.dumps({"kty": "EC", "crv": "P-256", "x": x, "y": y})

    async def sign(self, text: str) -> str | None:
        if self.keyless:
            return None
        self.signed.append(text)
        message = (text + " forged").encode() if self.forge else text.encode("ascii")
        return self.player.sign(message)

    async def verify(self, key: str, text: str, sig: str) -> bool:
        try:
            return verify(Signature(key, text.encode("ascii"), sig))
        except (ValueError, TypeError):
            return False
