// Boneyard's player identity for rated games (issue 36): an ECDSA P-256 key pair made with WebCrypto and
// kept in IndexedDB, the private key not extractable (the page can sign with it; nobody can read it out).
// A classic script that Python adds to the page when rated play needs it, as py/ui/online/net.py adds
// js/online.js; nothing here runs before that, and it asks no host for anything.
//
// Signatures cover the canonical bytes py/boneyard/rating.py defines (rating.canonical: compact JSON,
// sorted keys, ASCII only), which the page's Python hands over as text: being ASCII, the text's UTF-8
// bytes are exactly those bytes, so nothing is re-encoded here. Keys travel as rating.py reads them: the
// raw uncompressed point (65 bytes), base64url without padding; signatures as r and s (64 bytes, what
// WebCrypto's ECDSA gives), base64url.
//
// window.BoneyardIdentity (every result a Promise; strings in and out):
//   publicKey()              -> our public key, base64url of the raw point (made and stored on first use)
//   publicJwk()              -> our public key as a JWK (JSON text: kty, crv, x, y; never d)
//   sign(text)               -> base64url signature of text's bytes with our private key
//   verify(key, text, sig)   -> true when sig is key's signature of text (false for any malformed input)
// publicKey, publicJwk and sign reject when the browser keeps no IndexedDB (some private windows): the
// page then plays unrated; a later call tries again.
(function () {
  "use strict";
  if (window.BoneyardIdentity) return;

  var DB = "boneyard-identity";
  var STORE = "keys";
  var ME = "me";
  var ALGORITHM = { name: "ECDSA", namedCurve: "P-256" };
  var SIGNING = { name: "ECDSA", hash: "SHA-256" };
  var pair = null; // Promise<{privateKey, publicKey}>, once asked

  function request(req) {
    return new Promise(function (resolve, reject) {
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  function open() {
    var req = indexedDB.open(DB, 1);
    req.onupgradeneeded = function () { req.result.createObjectStore(STORE); };
    return request(req);
  }

  function read(db) {
    return request(db.transaction(STORE, "readonly").objectStore(STORE).get(ME));
  }

  // Make a pair and store it with add(), which fails when another tab stored one first: then theirs wins,
  // so every tab of this browser signs with one key.
  function make(db) {
    return crypto.subtle.generateKey(ALGORITHM, false, ["sign", "verify"]).then(function (keys) {
      var record = { privateKey: keys.privateKey, publicKey: keys.publicKey, created: new Date().toISOString() };
      return request(db.transaction(STORE, "readwrite").objectStore(STORE).add(record, ME)).then(
        function () { return record; },
        function () { return read(db); }
      );
    });
  }

  function keys() {
    if (!pair) {
      pair = open().then(function (db) {
        return read(db).then(function (found) { return found || make(db); }).then(function (found) {
          db.close();
          return found;
        });
      });
      pair.catch(function () { pair = null; }); // a later call tries again (storage may come back)
    }
    return pair;
  }

  function toB64(buffer) {
    var bytes = new Uint8Array(buffer);
    var text = "";
    for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromB64(text) {
    if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
    var plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(plain.length);
    for (var i = 0; i < plain.length; i++) bytes[i] = plain.charCodeAt(i);
    return bytes;
  }

  function bytesOf(text) {
    return new TextEncoder().encode(String(text));
  }

  function publicKey() {
    return keys().then(function (found) { return crypto.subtle.exportKey("raw", found.publicKey); }).then(toB64);
  }

  function publicJwk() {
    return keys().then(function (found) { return crypto.subtle.exportKey("jwk", found.publicKey); }).then(
      function (jwk) { return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }); }
    );
  }

  function sign(text) {
    return keys().then(function (found) {
      return crypto.subtle.sign(SIGNING, found.privateKey, bytesOf(text));
    }).then(toB64);
  }

  function verify(key, text, sig) {
    return Promise.resolve().then(function () {
      var raw = fromB64(key);
      var signature = fromB64(sig);
      if (raw.length !== 65 || signature.length !== 64) return false;
      return crypto.subtle.importKey("raw", raw, ALGORITHM, false, ["verify"]).then(function (imported) {
        return crypto.subtle.verify(SIGNING, imported, signature, bytesOf(text));
      });
    }).catch(function () { return false; }); // a key off the curve, junk base64: not a valid signature
  }

  window.BoneyardIdentity = { publicKey: publicKey, publicJwk: publicJwk, sign: sign, verify: verify };
})();
