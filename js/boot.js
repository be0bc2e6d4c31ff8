// Boneyard's boot script: runs before Python, in plain JS, so the loading screen is alive at once.
// It applies the saved theme (no flash), moves the progress bar, registers the service worker, and
// turns any failure before Python is ready into a readable message instead of a blank page.
(function () {
  "use strict";
  var root = document.documentElement;
  var started = performance.now();
  var ready = false;

  try {
    var saved = JSON.parse(localStorage.getItem("boneyard:settings") || "null");
    var prefs = saved && saved.settings ? saved.settings : {};
    var theme = prefs.theme || "felt";
    if (theme === "auto") {
      theme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    }
    root.dataset.theme = theme;
    var reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
    root.dataset.motion = prefs.animations === false || (prefs.animations !== true && reduced) ? "off" : "on";
  } catch (e) {
    root.dataset.theme = "felt";
  }

  function $(id) { return document.getElementById(id); }

  var percent = 5;
  function setProgress(value, text) {
    percent = Math.max(percent, Math.min(100, value));
    var bar = document.querySelector("#loading .progress-bar");
    var meter = document.querySelector("#loading .progress");
    if (bar) bar.style.width = percent + "%";
    if (meter) meter.setAttribute("aria-valuenow", String(Math.round(percent)));
    if (text && $("loading-stage")) $("loading-stage").textContent = text;
  }

  // The runtime gives no byte progress: creep towards 85% over the usual start-up time.
  var creep = setInterval(function () {
    if (ready) { clearInterval(creep); return; }
    var elapsed = (performance.now() - started) / 1000;
    setProgress(5 + 80 * (1 - Math.exp(-elapsed / 2.2)));
  }, 120);

  function fail(message) {
    if (ready) return;
    clearInterval(creep);
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

  function reveal() {
    var loading = $("loading");
    if (loading) loading.hidden = true;
  }

  window.boneyardBoot = {
    stage: function (text, value) { setProgress(value || percent, text); },
    fail: fail,
    // Python calls done() once the app is drawn; the loading screen stays up while an update installs.
    done: function () {
      ready = true;
      clearInterval(creep);
      console.info("Boneyard ready in " + Math.round(performance.now() - started) + " ms");
      if (updating || checking) {
        setProgress(96, updating ? "Updating Boneyard to the new version…" : "Checking for a new version…");
        return false;
      }
      setProgress(100, "Ready");
      reveal();
      return true;
    },
    startedAt: started,
  };

  addEventListener("error", function (event) {
    if (!ready) fail("A script failed while loading (" + (event.message || "unknown error") + "). Check your connection and try again.");
  });
  addEventListener("unhandledrejection", function (event) {
    var reason = event.reason && (event.reason.message || String(event.reason));
    if (!ready) fail("The Python runtime could not start (" + (reason || "unknown error") + ").");
  });
  document.addEventListener("py:ready", function () {
    setProgress(88, "Starting the games…");
  });
  // PyScript shows Python tracebacks in a .py-error element; before we are ready, surface it.
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
  setTimeout(function () {
    if (!ready) fail("Starting is taking far longer than usual. Reload the page to try again.");
  }, 120000);

  // Offline: the service worker precaches the whole site. On a return visit the worker checks for a new
  // version at once; if one is installing, the loading screen stays up and the page reloads into the
  // new version as soon as it takes over, so a load never mixes old and new files. A page already in
  // play when a new version arrives offers a reload instead.
  if ("serviceWorker" in navigator && location.protocol.indexOf("http") === 0) {
    var sw = navigator.serviceWorker;
    var hadController = !!sw.controller;
    sw.addEventListener("controllerchange", function () {
      if (!hadController) { hadController = true; return; }
      if (!ready || updating) { location.reload(); return; }
      window.dispatchEvent(new CustomEvent("boneyard:update-ready"));
    });
    var follow = function (worker) {
      if (!worker || worker.boneyardFollowed) return;
      if (ready && !checking && !updating) return; // a page in play: "controllerchange" offers a reload
      worker.boneyardFollowed = true;
      updating = true;
      setProgress(percent, "Updating Boneyard to the new version…");
      worker.addEventListener("statechange", function () {
        if (worker.state === "redundant") { // the update failed: carry on with this version
          updating = false;
          if (ready) { setProgress(100, "Ready"); reveal(); }
        }
      });
    };
    var settle = function () { // the update check is over: show the app if it is waiting for that
      checking = false;
      if (ready && !updating) { setProgress(100, "Ready"); reveal(); }
    };
    var register = function () {
      return sw.register("sw.js").then(function (reg) {
        if (reg) reg.addEventListener("updatefound", function () { follow(reg.installing); });
        return reg;
      });
    };
    var text = function (response) { return response.ok ? response.text() : null; };
    var published = function () {
      return fetch("version.json", { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) { return data && data.version; });
    };
    if (hadController) {
      // Return visit: compare the version this worker serves with the published one (a tiny request;
      // offline it fails at once). A new version: keep the loading screen up, install it, reload.
      checking = true;
      var timeout = new Promise(function (resolve) { setTimeout(resolve, 4000); });
      var check = Promise.all([fetch("__boneyard_version").then(text), published()]).then(function (versions) {
        if (versions[0] && versions[1] && versions[0] !== versions[1]) {
          updating = true;
          setProgress(percent, "Updating Boneyard to the new version…");
          return register().then(function (reg) {
            return reg.update().then(function () { follow(reg.installing || reg.waiting); });
          }).catch(function (err) { // the new version could not be installed: carry on with this one
            console.warn("Boneyard: the update failed:", err);
            updating = false;
          });
        }
        return register();
      });
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
