"""The player's key pair in the page (js/identity.js): made with WebCrypto, kept in IndexedDB with the
private key not extractable, exported as a JWK, and signing the records' canonical bytes exactly as
boneyard.rating checks them; the key survives a reload. One page: the real app, with the script added
as the page adds it for rated play.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest

from boneyard import rating

from ..test_rating import BEN, game, verify
from .conftest import Watch, new_context, open_app, reload_ready

pytestmark = pytest.mark.browser

LOAD = """
() => window.BoneyardIdentity ? true : new Promise((resolve, reject) => {
  const tag = document.createElement("script");
  tag.src = "js/identity.js";
  tag.onload = () => resolve(true);
  tag.onerror = () => reject(new Error("js/identity.js did not load"));
  document.head.appendChild(tag);
})
"""
STORED = """
() => new Promise((resolve, reject) => {
  const req = indexedDB.open("boneyard-identity");
  req.onerror = () => reject(req.error);
  req.onsuccess = () => {
    const get = req.result.transaction("keys").objectStore("keys").get("me");
    get.onsuccess = async () => {
      const found = get.result;
      let exported = "refused";
      try { await crypto.subtle.exportKey("pkcs8", found.privateKey); exported = "exported"; } catch (e) {}
      req.result.close();
      resolve({extractable: found.privateKey.extractable, type: found.privateKey.type, exported});
    };
  };
})
"""


@pytest.fixture(scope="module")
def page(browser: Any, base_url: str, watch: Watch) -> Iterator[Any]:
    context = new_context(browser, watch)
    app = open_app(context, base_url, watch)
    app.evaluate(LOAD)
    yield app
    watch.assert_clean(app)
    context.close()


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_the_page_makes_a_key_signs_a_record_and_python_checks_it(page: Any) -> None:
    key = page.evaluate("BoneyardIdentity.publicKey()")
    rating.fingerprint(key)  # 65 bytes of base64url: the raw point rating.py reads
    jwk = json.loads(page.evaluate("BoneyardIdentity.publicJwk()"))
    assert set(jwk) == {"kty", "crv", "x", "y"} and (jwk["kty"], jwk["crv"]) == ("EC", "P-256")
    raw = base64.urlsafe_b64decode(key + "=")
    assert raw[0] == 4 and b64(raw[1:33]) == jwk["x"] and b64(raw[33:]) == jwk["y"]
    assert page.evaluate(STORED) == {"extractable": False, "type": "private", "exported": "refused"}

    # A rated game between the page's player and Ben (signed here as WebCrypto signs), names not ASCII.
    class Page:
        name = "Zoë"

        def __init__(self) -> None:
            self.key = key

        def sign(self, message: bytes) -> str:
            result: str = page.evaluate("(text) => BoneyardIdentity.sign(text)", message.decode("ascii"))
            return result

    me = Page()
    start = rating.default_rating()
    signed = game([me, BEN], [start, start], [1, 2], "2026-12-05T10:00:00Z")  # type: ignore[list-item]
    check = rating.check_chain(key, "dominoes", [signed], verify)
    assert check.verified and check.counted == 1 and check.rating.mu > 25

    # The page checks Ben's signature as rating.signatures() lists it, and refuses a tampered one.
    ben_end = [s for s in rating.signatures(signed) if s.key == BEN.key][-1]
    args = [ben_end.key, ben_end.message.decode("ascii"), ben_end.signature]
    assert page.evaluate("([k, t, s]) => BoneyardIdentity.verify(k, t, s)", args) is True
    tampered = [args[0], args[1].replace('"placings":[1,2]', '"placings":[2,1]'), args[2]]
    assert tampered[1] != args[1]
    assert page.evaluate("([k, t, s]) => BoneyardIdentity.verify(k, t, s)", tampered) is False
    for junk in (["AAAA", args[1], args[2]], [args[0], args[1], "!!"], ["A" * 87, args[1], args[2]]):
        assert page.evaluate("([k, t, s]) => BoneyardIdentity.verify(k, t, s)", junk) is False

    # The same key after a reload.
    reload_ready(page)
    page.evaluate(LOAD)
    assert page.evaluate("BoneyardIdentity.publicKey()") == key
