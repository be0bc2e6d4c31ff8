// Boneyard's boot script: runs before Python, in plain JS, so the loading screen is alive at once.
// It applies the saved theme (no flash), moves the progress bar, registers the service worker, and
// turns any failure before Python is ready into a readable message instead of a blank page.
(function () {
  "use strict";
  var root = document.documentElement;
  var started = performance.now();
  var ready = false;
  // A return visit starts from this device's copy (the service worker's); the first one downloads it
  // all. The loading screen words each in the player's terms (index.html holds both, css/app.css picks).
  var controlled = false;
  try {
    controlled = !!(navigator.serviceWorker && navigator.serviceWorker.controller);
  } catch (e) {
    controlled = false;
  }
  root.dataset.visit = controlled ? "return" : "first";

  // The start's files, asked for at once from the top of the page (tools/build_site.py lists them in
  // its #boneyard-start). On a return visit each is read straight from the service worker's cache
  // (caches.match: no round trip through the worker, which still serves anything missing there); a
  // first visit downloads them. Whoever asks for one later (our loader, Pyodide, PyScript) is handed
  // that response, once, by the fetch() below.
  var plainFetch = window.fetch;
  var early = {};
  function absolute(path) { return new URL(path, location.href).href; }
  function get(url) {
    if (!controlled || !window.caches) return plainFetch(url);
    return caches.match(url).then(function (hit) { return hit || plainFetch(url); },
      function () { return plainFetch(url); });
  }
  // A return visit's two heavy reads go to one helper thread of the page, off its busy main thread:
  // - the memory snapshot (11 MB), read whole from the cache and handed over (transferred, not copied)
  //   on the response, as `boneyardBytes`, which the loader takes as they are;
  // - the WebAssembly, compiled there from its stream (through the service worker, so Chromium reads
  //   the compiled code from its code cache: finishing that takes the thread tens of milliseconds) and
  //   handed over as a compiled module (a module is shared between the threads, not copied).
  // The helper is never stopped: Chromium writes that code cache later, once enough of the module has
  // been optimised, and a helper stopped after its two answers left the next visit with none (traced:
  // no wasm.Deserialize, 1,619 functions compiled lazily on the main thread). Return visits, 20 each
  // alternated with the page before it (the wasm compiled on the main thread): ready 848 -> 758 ms,
  // faster in 15 of 20. Anything amiss (no worker, an error): each is read as above, here.
  var helper = null;
  var helperWaiting = {};
  function askHelper(kind, url) {
    if (!controlled || !window.caches || !window.Worker || !window.Blob) return Promise.resolve(null);
    return new Promise(function (resolve) {
      try {
        if (!helper) {
          helper = new Worker(URL.createObjectURL(new Blob([
            "onmessage=function(e){var d=e.data;" +
            "if(d.kind==='wasm'){var no=function(){postMessage({kind:'wasm',module:null});};" +
            "WebAssembly.compileStreaming(fetch(d.url)).then(function(m){postMessage({kind:'wasm',module:m});})" +
            ".catch(no);return;}" +
            "caches.match(d.url).then(function(r){if(!r)return postMessage({kind:'snap',got:null});" +
            "var h={};r.headers.forEach(function(v,k){h[k]=v;});" +
            "return r.arrayBuffer().then(function(b){postMessage({kind:'snap',got:{headers:h,body:b}},[b]);});})" +
            ".catch(function(){postMessage({kind:'snap',got:null});});};"], { type: "text/javascript" })));
          helper.onmessage = function (event) {
            var waiting = helperWaiting[event.data.kind];
            delete helperWaiting[event.data.kind];
            if (waiting) waiting(event.data);
          };
          helper.onerror = function () {
            var waiting = helperWaiting;
            helperWaiting = {};
            for (var kind in waiting) waiting[kind](null);
          };
        }
      } catch (e) {
        return resolve(null);
      }
      helperWaiting[kind] = resolve;
      helper.postMessage({ kind: kind, url: url });
    });
  }
  function getWhole(url) {
    return askHelper("snap", url).then(function (answer) {
      var got = answer && answer.got;
      if (!got) return get(url);
      var response = new Response(null, { headers: got.headers });
      response.boneyardBytes = got.body;
      return response;
    });
  }
  function compileHere(url) { return WebAssembly.compileStreaming(plainFetch(url)); }
  function compileWasm(url) {
    return askHelper("wasm", url).then(function (answer) {
      if (answer && answer.module instanceof WebAssembly.Module) return answer.module;
      if (window.boneyardWasm) window.boneyardWasm.compiledBy = "page";
      return compileHere(url);
    });
  }
  var start = null;
  try {
    var listed = document.getElementById("boneyard-start");
    start = listed ? JSON.parse(listed.textContent) : null;
  } catch (e) {
    start = null;
  }
  if (start && plainFetch) {
    window.fetch = function (input, init) {
      var waiting = null;
      try {
        var method = (init && init.method) || (typeof input === "object" && input.method) || "GET";
        var url = absolute(typeof input === "object" && input.url ? input.url : String(input));
        if (method.toUpperCase() === "GET" && !(init && (init.integrity || init.cache))) {
          waiting = early[url];
          delete early[url];
        }
      } catch (e) {
        waiting = null;
      }
      return waiting || plainFetch.apply(window, arguments);
    };
  }

  // Before the loading screen's first frame the page asks for nothing (each fetch() costs the busy main
  // thread milliseconds, a parser held up by this script paints the page in two frames instead of one,
  // and the helper above is a thread of its own). Everything starts once the loading screen has
  // painted, the work that takes a core too (compiling the WebAssembly, parsing and running the
  // runtime's modules): PyScript's own start is the long pole, cold or on a return visit (measured:
  // it asks for the interpreter after the snapshot is in), and it begins only then anyway. Then our
  // interpreter module, which starts Pyodide, and PyScript run, in that order, their modules preloaded
  // meanwhile.
  var f;
  function ask(path) {
    var url = absolute(path);
    if (early[url]) return;
    early[url] = /\.snap\.gz$/.test(url) ? getWhole(url) : get(url);
    early[url].catch(function () {}); // its taker sees the failure
  }
  // The WebAssembly, fetched once the loading screen has painted and compiled while it arrives (on a
  // return visit by the helper above): the loader (js/pyodide-snapshot.mjs) takes this compilation over
  // instead of starting its own. Streamed from the network or from the service worker, which passes its
  // cached response through untouched (`application/wasm`), Chromium keeps the compiled code and a
  // later visit reads it from its code cache (traced: wasm.Deserialize, on the helper's thread).
  // Not caches.match() here: a response the page itself read from the cache never got that code cache.
  var wasmUrl = absolute("vendor/pyodide/pyodide.asm.wasm");
  // "Painted" is the first contentful paint as the browser reports it (the frame is on the screen, not
  // only drawn: rasterising it takes a core too); a background tab never paints, so it waits 100 ms.
  var painted = new Promise(function (resolve) {
    var go = function () { setTimeout(resolve, 0); };
    var hidden = function () { return document.visibilityState === "hidden"; };
    try {
      new PerformanceObserver(function (list, observer) {
        if (list.getEntriesByName("first-contentful-paint").length) { observer.disconnect(); go(); }
      }).observe({ type: "paint", buffered: true });
    } catch (e) {
      requestAnimationFrame(go);
    }
    if (hidden()) setTimeout(resolve, 100);
    document.addEventListener("visibilitychange", function () { if (hidden()) setTimeout(resolve, 100); });
    setTimeout(resolve, 1500); // a browser that reports no paint
  });
  painted.then(function () {
    root.dataset.painted = "true"; // the loading logo's tilt and shadow (css/app.css)
    watchPage();
    try {
      if (plainFetch && WebAssembly.compileStreaming) {
        var wasm = controlled ? compileWasm(wasmUrl) : compileHere(wasmUrl);
        wasm.catch(function () {});
        window.boneyardWasm = { url: wasmUrl, module: wasm, compiledBy: controlled ? "helper" : "page" };
      }
    } catch (e) {
      // No streaming compiler here: the loader fetches and compiles the file itself.
    }
    var preload = (start && start.modules) || [];
    for (f = 0; f < preload.length; f++) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = preload[f];
      document.head.appendChild(link);
    }
    var modules = ["js/pyodide-snapshot.mjs", "vendor/pyscript/core.js"];
    for (f = 0; f < modules.length; f++) {
      var script = document.createElement("script");
      script.type = "module";
      script.async = false;
      script.src = modules[f];
      document.head.appendChild(script);
    }
    // Then the start's data, the snapshot first. Asked for after the code: a first visit over HTTP/1.1
    // has six connections to the host, and the few small modules that start Pyodide and PyScript must
    // not wait behind megabytes of snapshot and stdlib (on a return visit these come from the cache).
    for (f = 0; start && plainFetch && f < start.fetch.length; f++) ask(start.fetch[f]);
    applyStylesheets(); // last: the start's own requests go out first
  });

  try {
    var saved = JSON.parse(localStorage.getItem("boneyard:settings") || "null");
    var prefs = saved && saved.settings ? saved.settings : {};
    var theme = prefs.theme || "felt";
    if (theme === "auto") {
      theme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    }
    root.dataset.theme = theme;
    root.dataset.motion = motion(prefs.animations);
  } catch (e) {
    root.dataset.theme = "felt";
    root.dataset.motion = motion("system");
  }

  // The player's Animations setting as py/boneyard/settings.py stores it: "on", "off" or "system" (the
  // system's reduced-motion preference); an early form stored true or false.
  function motion(setting) {
    if (setting === "on" || setting === true) return "on";
    if (setting === "off" || setting === false) return "off";
    try {
      return matchMedia("(prefers-reduced-motion: reduce)").matches ? "off" : "on";
    } catch (e) {
      return "on";
    }
  }

  function $(id) { return document.getElementById(id); }

  // The bar creeps by itself (css/app.css, on the compositor: nothing for this busy thread to draw) until
  // a stage of the start says where it is; it then moves on from wherever the creep has got to.
  var percent = 5;
  function setProgress(value, text) {
    var bar = document.querySelector("#loading .progress-bar");
    var meter = document.querySelector("#loading .progress");
    if (value > percent && bar) {
      percent = Math.min(100, value);
      if (bar.style.animationName !== "none") {
        bar.style.transform = getComputedStyle(bar).transform; // where the creep is now
        bar.style.animationName = "none";
        getComputedStyle(bar).transform; // start the move from there
      }
      bar.style.transform = "translateX(" + (percent - 100) + "%)";
    }
    if (meter) meter.setAttribute("aria-valuenow", String(Math.round(percent)));
    if (text && $("loading-stage")) $("loading-stage").textContent = text;
  }

  function fail(message) {
    if (ready) return;
    var box = $("loading-error");
    if (!box) return;
    $("loading-error-text").textContent = message;
    box.hidden = false;
    var stage = $("loading-stage");
    if (stage) stage.hidden = true;
    root.dataset.bootError = "true";
  }

  var updating = false;
  var checking = false; // a return visit's update check is under way

  // The page's style sheets but the loading screen's own rules (which it carries: tools/build_site.py)
  // wait in index.html's template, unrequested: added to the page here, they load and apply at once.
  function applyStylesheets() {
    var waiting = $("deferred-styles");
    if (waiting) {
      document.head.appendChild(waiting.content);
      waiting.remove();
    }
    var sheets = document.querySelectorAll("link[data-deferred]");
    for (var i = 0; i < sheets.length; i++) sheets[i].media = "all";
  }

  // The loading screen goes once the app's stylesheet has arrived, so the app never shows unstyled;
  // should it fail, at once.
  function reveal() {
    applyStylesheets();
    var sheet = $("app-css");
    if (sheet && !sheet.dataset.loaded) {
      var go = function () { reveal(); };
      sheet.addEventListener("load", go);
      sheet.addEventListener("error", go);
      setTimeout(function () { sheet.dataset.loaded = "late"; reveal(); }, 5000);
      return;
    }
    var loading = $("loading");
    if (loading) loading.hidden = true;
  }

  addEventListener("error", function (event) {
    if (!ready) fail("A script failed while loading (" + (event.message || "unknown error") + "). Check your connection and try again.");
  });
  addEventListener("unhandledrejection", function (event) {
    var reason = event.reason && (event.reason.message || String(event.reason));
    if (!ready) fail("The Python runtime could not start (" + (reason || "unknown error") + ").");
  });
  document.addEventListener("py:ready", function () {
    setProgress(88, "Setting out the tiles…");
  });
  // PyScript shows Python tracebacks in a .py-error element; before we are ready, surface it. (Both
  // observers start once the loading screen has painted: none of this happens earlier, and watching the
  // page while it parses would cost its first frame.)
  function watchPage() {
    new MutationObserver(function (records) {
      if (ready) return;
      for (var i = 0; i < records.length; i++) {
        var nodes = records[i].addedNodes;
        for (var j = 0; j < nodes.length; j++) {
          var node = nodes[j];
          if (node.nodeType === 1 && node.classList && node.classList.contains("py-error")) {
            var lines = (node.textContent || "").trim().split("\n");
            fail("Python stopped with an error: " + lines[lines.length - 1]);
          }
        }
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
    new MutationObserver(function () {
      if (installPrompt && document.querySelector(".install-btn[hidden]")) showInstallButtons();
    }).observe(document.documentElement, { childList: true, subtree: true });
  }
  setTimeout(function () {
    if (!ready) fail("Starting is taking far longer than usual. Reload the page to try again.");
  }, 120000);

  // Install: where the browser offers to install the site as an app, it fires beforeinstallprompt; we
  // keep that prompt, mark <html data-installable> and show every `.install-btn` (the app draws them
  // hidden, and redraws often: an observer shows the new ones). install() shows the browser's dialog.
  var installPrompt = null;
  function showInstallButtons() {
    var buttons = document.querySelectorAll(".install-btn");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = !installPrompt;
  }
  function setInstallable(prompt) {
    installPrompt = prompt;
    if (prompt) root.dataset.installable = "true";
    else delete root.dataset.installable;
    showInstallButtons();
  }
  addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault(); // no mini-infobar: the Install button offers it when the player wants
    setInstallable(event);
  });
  addEventListener("appinstalled", function () { setInstallable(null); });
  function install() {
    var prompt = installPrompt;
    if (!prompt) return Promise.resolve("unavailable");
    setInstallable(null); // a prompt can be shown once; the browser fires a new event if it offers again
    return Promise.resolve(prompt.prompt()).then(function () { return prompt.userChoice; })
      .then(function (choice) { return (choice && choice.outcome) || "dismissed"; },
        function () { return "failed"; });
  }

  // Offline and updates: the service worker precaches the whole site and serves it; a new version is a
  // new worker, which waits until this page lets it take over, so a page never mixes old and new files.
  // - Return visit: the loading screen checks the published version at once; if it differs, the new
  //   worker installs while the loading screen stays up, takes over, and the page reloads into it.
  // - A page in play (ready): a new version found meanwhile (the browser's own checks, ours every half
  //   hour and when the page comes back into view) installs in the background; the page then fires
  //   "boneyard:update-ready" and the app tells the player, who chooses when: the app saves the game
  //   and calls update(), which lets the new worker take over and reloads.
  var offered = false;
  function offerUpdate() {
    if (offered) return;
    offered = true;
    window.dispatchEvent(new CustomEvent("boneyard:update-ready"));
  }
  var registration = null;
  var update = function () { location.reload(); };
  var checkForUpdate = function () { return Promise.resolve(false); };

  window.boneyardBoot = {
    stage: function (text, value) { setProgress(value || percent, text); },
    fail: fail,
    // Python calls done() once the app is drawn; the loading screen stays up while an update installs.
    done: function () {
      ready = true;
      console.info("Boneyard ready in " + Math.round(performance.now() - started) + " ms");
      if (updating || checking) {
        setProgress(96, updating ? "Installing the new version of Boneyard…" : "Checking for a new version…");
        return false;
      }
      setProgress(100, "Ready");
      reveal();
      return true;
    },
    // The app's Install button: shows the browser's install dialog; resolves to its outcome.
    install: function () { return install(); },
    installable: function () { return !!installPrompt; },
    // The app's Reload of an update offer (the game already saved): the new version takes over.
    update: function () { return update(); },
    // Ask the server now whether a new version is published (resolves true if one is installing).
    checkForUpdate: function () { return checkForUpdate(); },
    startedAt: started,
  };

  if ("serviceWorker" in navigator && location.protocol.indexOf("http") === 0) {
    var sw = navigator.serviceWorker;
    var hadController = !!sw.controller;
    sw.addEventListener("controllerchange", function () {
      if (!hadController) { hadController = true; return; }
      if (!ready || updating) { location.reload(); return; }
      offerUpdate(); // another tab let the new version in: this page runs old files, offer the reload
    });
    var takeOver = function (worker) { worker.postMessage({ type: "skip-waiting" }); };
    // Follow a new worker: while loading (or once the player asked), let it take over as soon as it is
    // installed (the "controllerchange" above then reloads); in play, tell the app it is ready.
    var follow = function (worker) {
      if (!worker || worker.boneyardFollowed) return;
      worker.boneyardFollowed = true;
      var loading = !ready || checking || updating;
      if (loading) {
        updating = true;
        setProgress(percent, "Installing the new version of Boneyard…");
      }
      var settled = function () {
        if (worker.state === "installed") {
          if (updating) takeOver(worker);
          else offerUpdate();
        } else if (worker.state === "redundant" && loading) { // the update failed: carry on with this version
          updating = false;
          if (ready) { setProgress(100, "Ready"); reveal(); }
        }
      };
      worker.addEventListener("statechange", settled);
      settled();
    };
    var watch = function (reg) {
      if (!reg || reg.boneyardWatched) return reg;
      reg.boneyardWatched = true;
      registration = reg;
      reg.addEventListener("updatefound", function () { if (hadController) follow(reg.installing); });
      if (reg.waiting && sw.controller) follow(reg.waiting);
      return reg;
    };
    var register = function () { return sw.register("sw.js").then(watch); };
    update = function () {
      var waiting = registration && registration.waiting;
      if (!waiting) { location.reload(); return; }
      updating = true;
      takeOver(waiting); // "controllerchange" reloads; should the worker not answer, reload anyway
      setTimeout(function () { location.reload(); }, 3000);
    };
    checkForUpdate = function () {
      if (!registration) return Promise.resolve(false);
      return registration.update().then(function () {
        return !!(registration.installing || registration.waiting);
      }, function () { return false; }); // offline: nothing to install
    };
    var lastCheck = Date.now();
    var checkNow = function () { lastCheck = Date.now(); checkForUpdate(); };
    setInterval(function () { if (ready && !document.hidden) checkNow(); }, 30 * 60 * 1000);
    document.addEventListener("visibilitychange", function () {
      if (ready && !document.hidden && Date.now() - lastCheck > 5 * 60 * 1000) checkNow();
    });
    var settle = function () { // the update check is over: show the app if it is waiting for that
      checking = false;
      if (ready && !updating) { setProgress(100, "Ready"); reveal(); }
    };
    var text = function (response) { return response.ok ? response.text() : null; };
    var published = function () {
      return fetch("version.json", { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) { return data && data.version; });
    };
    if (hadController) {
      // Return visit: compare the version this worker serves with the published one (a tiny request;
      // offline it fails at once). A new version: keep the loading screen up, install it, reload.
      // (Asked once the loading screen has painted, like every request but the start's long poles.)
      checking = true;
      var timeout = new Promise(function (resolve) { setTimeout(resolve, 4000); });
      var asked = painted.then(function () {
        return Promise.all([fetch("__boneyard_version").then(text), published()]);
      });
      var check = asked.then(function (versions) {
        if (versions[0] && versions[1] && versions[0] !== versions[1]) {
          updating = true;
          setProgress(percent, "Installing the new version of Boneyard…");
          return register().then(function (reg) {
            return reg.update().then(function () { follow(reg.installing || reg.waiting); });
          }).catch(function (err) { // the new version could not be installed: carry on with this one
            console.warn("Boneyard: the update failed:", err);
            updating = false;
          });
        }
        return register();
      });
      check.catch(function () { return register(); }).catch(function () {});
      Promise.race([check, timeout]).then(settle, settle);
    } else {
      // First visit: precache only once the app is up, so the runtime is not downloaded twice at once.
      var waitReady = setInterval(function () {
        if (ready) { clearInterval(waitReady); register().catch(function (err) {
          console.warn("Boneyard: offline support is unavailable:", err);
        }); }
      }, 250);
    }
  }
})();
