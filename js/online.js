// Boneyard's online transport: WebRTC data channels through PeerJS, for the rooms of issue 13.
// A classic script that Python adds to the page only when a room opens (py/ui/browser/peer.py); nothing
// here runs, and no other host is asked anything, before that. It loads the vendored PeerJS bundle and
// qrcode-generator on the first ready(), from this site (precached by the service worker with the rest).
//
// window.BoneyardNet (every argument and event is a string; docs/architecture.md, Online rooms, has the contract):
//   ready()                          -> Promise: the scripts are loaded
//   host(roomId, configJson, onEvent) -> Promise<void>: registers "boneyard-" + roomId at the broker;
//                                       rejects with Error("unavailable-id") if the id is taken
//   join(roomId, configJson, onEvent) -> Promise<string>: the host's peer id, once our channel is open
//   send(peerId, text) -> bool;  drop(peerId);  close() (leaves the broker and every channel)
//   release()  gives our peer id back to the broker and keeps every open channel (a quick match's host
//              once its table starts: the next seekers may claim the lobby id); no reconnect follows
//   claim(roomId, configJson) -> Promise<void>: after release(), registers "boneyard-" + roomId as the
//              session's new peer and keeps every open channel (a quick match's table becomes a room
//              whose code guests reconnect to, as to a friends' room); rejects like host()
//   ephemeralKey() -> Promise<string>: a fresh P-256 public key (raw point, base64url), for a quick
//              match in a browser that keeps no identity (js/identity.js needs IndexedDB)
// host() rejects with the broker's reason ("unavailable-id": the id is taken; "network", ...), join()
// with "peer-unavailable" when nobody holds the id (quick match's "unreachable") or "timeout".
//   qrSvg(text) -> SVG markup of a QR code for text (the room's join link)
//   stats() -> JSON {"broker": "open"|"lost"|"released"|"closed", "id": our peer id, "peers": [...],
//                    "dropped": n, "handled": n, "busyMs": n} (events the page's handler took, and the
//                    time it spent on them)
// onEvent(json) gets {"type": "open"|"message"|"close"|"error"|"broker", "peer", "data", "reason"}.
// configJson: {"host", "port", "path", "secure", "key", "iceServers"}; "{}" is PeerJS's public broker
// and its public STUN/TURN servers. Channels are reliable and ordered, with PeerJS's "raw" serialization,
// so a string arrives as it was sent; anything but a string, or a string over MAX_MESSAGE characters,
// is dropped here and never reaches Python.
(function () {
  "use strict";
  if (window.BoneyardNet) return;

  var MAX_MESSAGE = 65536;
  var ID_PREFIX = "boneyard-";
  var JOIN_TIMEOUT_MS = 20000; // the host's channel must open within this
  var MAX_CHANNELS = 16; // a host's open channels (a room has at most three guests, some reconnecting)
  var RETRY_MS = [500, 1000, 2000, 4000, 8000, 15000, 30000]; // reconnecting to the broker, then every 30 s
  // This script's own address (js/online.js), so the vendored files are found wherever the site lives.
  var base = (document.currentScript && document.currentScript.src) || new URL("js/online.js", document.baseURI).href;
  var scripts = {}; // src -> Promise
  var current = null; // the open session: {peer, role, conns, onEvent, retries, timer, brokerUp}
  var dropped = 0;
  var handled = 0; // events given to the page's handler, and the milliseconds it spent on them
  var busyMs = 0;

  function url(path) {
    return new URL(path, base).href;
  }

  function load(src, loaded) {
    if (loaded()) return Promise.resolve();
    if (!scripts[src]) {
      scripts[src] = new Promise(function (resolve, reject) {
        var tag = document.createElement("script");
        tag.src = url(src);
        tag.async = true;
        tag.onload = function () {
          if (loaded()) resolve();
          else reject(new Error("script-empty: " + src));
        };
        tag.onerror = function () {
          tag.remove();
          delete scripts[src]; // a later ready() tries again
          reject(new Error("script-failed: " + src));
        };
        document.head.appendChild(tag);
      });
    }
    return scripts[src];
  }

  function ready() {
    return Promise.all([
      load("../vendor/peerjs/peerjs.min.js", function () { return typeof window.Peer === "function"; }),
      load("../vendor/qrcode/qrcode.js", function () { return typeof window.qrcode === "function"; }),
    ]).then(function () {});
  }

  function parseConfig(configJson) {
    var config = {};
    try {
      config = JSON.parse(configJson || "{}") || {};
    } catch (e) {
      config = {};
    }
    var options = { debug: 0 };
    if (typeof config.host === "string" && config.host) {
      options.host = config.host;
      options.port = Number(config.port) || (config.secure === false ? 80 : 443);
      options.path = typeof config.path === "string" && config.path ? config.path : "/";
      options.secure = config.secure !== false;
      options.key = typeof config.key === "string" && config.key ? config.key : "peerjs";
    }
    if (Array.isArray(config.iceServers)) {
      options.config = { iceServers: config.iceServers };
    }
    return options;
  }

  function emit(session, type, peer, data, reason) {
    if (!session || session !== current || !session.onEvent) return;
    var event = { type: type, peer: peer || "", data: data === undefined ? "" : data, reason: reason || "" };
    var started = performance.now();
    try {
      session.onEvent(JSON.stringify(event));
    } catch (e) {
      console.warn("Boneyard online: the event handler failed:", e);
    }
    handled += 1;
    busyMs += performance.now() - started;
  }

  function errorType(err) {
    return (err && (err.type || err.message)) || String(err);
  }

  // Watch one data channel: messages (strings within the limit only), its close and its errors.
  function watch(session, conn) {
    conn.on("data", function (data) {
      if (typeof data !== "string" || data.length > MAX_MESSAGE) {
        dropped += 1;
        console.warn("Boneyard online: dropped a message from " + conn.peer + " (" +
          (typeof data === "string" ? data.length + " characters" : "not text") + ")");
        return;
      }
      if (session.conns[conn.peer] === conn) emit(session, "message", conn.peer, data);
    });
    conn.on("close", function () {
      if (session.conns[conn.peer] !== conn) return; // replaced, or dropped by us
      delete session.conns[conn.peer];
      emit(session, "close", conn.peer, "", "closed");
    });
    conn.on("error", function (err) {
      emit(session, "error", conn.peer, "", errorType(err));
    });
  }

  // Reconnect to the broker after it dropped us, with a growing pause; the peer keeps its id.
  function scheduleReconnect(session) {
    if (session !== current || session.timer || !session.peer || session.peer.destroyed) return;
    var wait = RETRY_MS[Math.min(session.retries, RETRY_MS.length - 1)];
    session.retries += 1;
    session.timer = setTimeout(function () {
      session.timer = null;
      if (session !== current || session.peer.destroyed) return;
      if (session.peer.disconnected) {
        try {
          session.peer.reconnect();
        } catch (e) {
          scheduleReconnect(session);
        }
      }
    }, wait);
  }

  function brokerLost(session) {
    if (session.released) return; // we left the broker on purpose; the channels carry on
    if (session.brokerUp) {
      session.brokerUp = false;
      emit(session, "broker", "", "", "lost");
    }
    scheduleReconnect(session);
  }

  function start(role, id, configJson, onEvent) {
    close();
    var options = parseConfig(configJson);
    var peer = id ? new window.Peer(id, options) : new window.Peer(options);
    var session = { peer: peer, role: role, conns: {}, onEvent: onEvent, retries: 0, timer: null,
      brokerUp: false, opened: false };
    current = session;
    watchBroker(session, peer);
    return session;
  }

  function watchBroker(session, peer) {
    peer.on("disconnected", function () {
      if (session === current && !peer.destroyed && !session.released) brokerLost(session);
    });
    peer.on("open", function () {
      session.retries = 0;
      if (!session.brokerUp && session.opened) emit(session, "broker", "", "", "regained");
      session.brokerUp = true;
      session.opened = true;
    });
  }

  function host(roomId, configJson, onEvent) {
    return ready().then(function () {
      var id = ID_PREFIX + String(roomId).toLowerCase();
      return listen(start("host", id, configJson, onEvent));
    });
  }

  // Take guests' channels on the session's peer; resolve once the broker registered its id (``failed``:
  // what a refusal before that does to the session, closing it unless the caller says otherwise).
  function listen(session, failed) {
    var peer = session.peer;
    peer.on("connection", function (conn) {
      if (session !== current) return conn.close();
      if (Object.keys(session.conns).length >= MAX_CHANNELS && !session.conns[conn.peer]) {
        console.warn("Boneyard online: refused a channel from " + conn.peer + " (the room is full)");
        return conn.close();
      }
      conn.on("open", function () {
        var old = session.conns[conn.peer];
        session.conns[conn.peer] = conn;
        if (old && old !== conn) old.close(); // the same guest again: its new channel wins
        emit(session, "open", conn.peer);
      });
      watch(session, conn);
    });
    return new Promise(function (resolve, reject) {
      peer.on("open", function () { resolve(); });
      peer.on("error", function (err) {
        var type = errorType(err);
        if (!session.opened) {
          if (failed) failed();
          else if (session === current) close();
          reject(new Error(type));
        } else if (type === "network" || type === "server-error" || type === "socket-error" ||
            type === "socket-closed") {
          brokerLost(session);
        } else if (type !== "peer-unavailable") {
          emit(session, "error", "", "", type);
        }
      });
    });
  }

  // A second peer for the released session (quick match): the channels stay, the new id takes guests.
  function claim(roomId, configJson) {
    var session = current;
    if (!session || !session.released) return Promise.reject(new Error("not-released"));
    var id = ID_PREFIX + String(roomId).toLowerCase();
    var old = session.peer;
    var peer = new window.Peer(id, parseConfig(configJson));
    session.peer = peer;
    session.released = false;
    session.opened = false;
    session.brokerUp = false;
    session.retired = (session.retired || []).concat([old]);
    watchBroker(session, peer);
    return listen(session, function () { // refused: back to the released session, its channels kept
      if (session.peer !== peer) return;
      session.peer = old;
      session.released = true;
      session.opened = true;
      session.retired.pop();
      try { peer.destroy(); } catch (e) { /* already gone */ }
    });
  }

  function join(roomId, configJson, onEvent) {
    return ready().then(function () {
      var hostId = ID_PREFIX + String(roomId).toLowerCase();
      var session = start("guest", "", configJson, onEvent);
      var peer = session.peer;
      peer.on("connection", function (conn) { conn.close(); }); // a guest talks to its host only
      return new Promise(function (resolve, reject) {
        var settled = false;
        function fail(reason) {
          if (settled) return;
          settled = true;
          clearTimeout(timeout);
          if (session === current) close();
          reject(new Error(reason));
        }
        var timeout = setTimeout(function () { fail("timeout"); }, JOIN_TIMEOUT_MS);
        peer.on("open", function () {
          if (settled || session.conns[hostId]) return; // a reconnect to the broker: the channel stays
          var conn = peer.connect(hostId, { reliable: true, serialization: "raw" });
          if (!conn) return fail("disconnected");
          watch(session, conn);
          conn.on("open", function () {
            if (settled) return conn.close();
            settled = true;
            clearTimeout(timeout);
            session.conns[hostId] = conn;
            emit(session, "open", hostId);
            resolve(hostId);
          });
        });
        peer.on("error", function (err) {
          var type = errorType(err);
          if (!settled) return fail(type);
          if (type === "network" || type === "server-error" || type === "socket-error" ||
              type === "socket-closed") {
            brokerLost(session);
          } else {
            emit(session, "error", "", "", type);
          }
        });
      });
    });
  }

  function send(peerId, text) {
    var conn = current && current.conns[peerId];
    if (!conn || !conn.open) return false;
    try {
      conn.send(String(text));
      return true;
    } catch (e) {
      emit(current, "error", peerId, "", errorType(e));
      return false;
    }
  }

  function drop(peerId) {
    var conn = current && current.conns[peerId];
    if (!conn) return;
    delete current.conns[peerId]; // our own choice: no "close" event for it
    conn.close();
  }

  function release() {
    var session = current;
    if (!session || session.peer.destroyed) return;
    session.released = true; // a chosen disconnect: no "broker lost", no reconnect
    clearTimeout(session.timer);
    session.timer = null;
    try { session.peer.disconnect(); } catch (e) { /* already off the broker */ }
  }

  function ephemeralKey() {
    return crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])
      .then(function (pair) { return crypto.subtle.exportKey("raw", pair.publicKey); })
      .then(function (raw) {
        var text = String.fromCharCode.apply(null, new Uint8Array(raw));
        return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      });
  }

  function close() {
    var session = current;
    current = null;
    if (!session) return;
    clearTimeout(session.timer);
    session.timer = null;
    session.onEvent = null;
    Object.keys(session.conns).forEach(function (id) {
      try { session.conns[id].close(); } catch (e) { /* already closed */ }
    });
    session.conns = {};
    (session.retired || []).concat([session.peer]).forEach(function (peer) {
      try { peer.destroy(); } catch (e) { /* already gone */ }
    });
  }

  function qrSvg(text) {
    if (typeof window.qrcode !== "function") throw new Error("qrcode-not-loaded: call ready() first");
    var qr = window.qrcode(0, "M"); // the smallest version that holds it; 15% of it may be smudged
    qr.addData(unescape(encodeURIComponent(String(text)))); // UTF-8 bytes, one per character
    qr.make();
    return qr.createSvgTag({ cellSize: 1, margin: 4, scalable: true })
      .replace("<svg ", '<svg class="qr" shape-rendering="crispEdges" ');
  }

  function stats() {
    return JSON.stringify({
      broker: current ? (current.released ? "released" : current.brokerUp ? "open" : "lost") : "closed",
      role: current ? current.role : "",
      id: current && current.peer.id ? current.peer.id : "",
      peers: current ? Object.keys(current.conns) : [],
      dropped: dropped,
      handled: handled,
      busyMs: Math.round(busyMs),
    });
  }

  window.BoneyardNet = {
    MAX_MESSAGE: MAX_MESSAGE,
    ready: ready,
    host: host,
    join: join,
    send: send,
    drop: drop,
    release: release,
    claim: claim,
    ephemeralKey: ephemeralKey,
    close: close,
    qrSvg: qrSvg,
    stats: stats,
  };
  window.addEventListener("online", function () { // the device is back on a network: try the broker now
    var session = current;
    if (!session || session.released || session.brokerUp || !session.peer.disconnected) return;
    clearTimeout(session.timer);
    session.timer = null;
    session.retries = 0;
    scheduleReconnect(session);
  });
  window.addEventListener("pagehide", function (event) {
    if (!event.persisted) close(); // tell the broker and the other side at once that we left
  });
})();
