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

  window.boneyardBoot = {
    stage: function (text, value) { setProgress(value || percent, text); },
    fail: fail,
    done: function () {
      ready = true;
      clearInterval(creep);
      setProgress(100, "Ready");
      console.info("Boneyard ready in " + Math.round(performance.now() - started) + " ms");
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

  // Offline: the service worker precaches the whole site. When a new version takes over, a page that
  // is still loading reloads at once (never a mix of old and new files); a page in play offers it.
  if ("serviceWorker" in navigator && location.protocol.indexOf("http") === 0) {
    var hadController = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (!hadController) { hadController = true; return; }
      if (!ready) { location.reload(); return; }
      window.dispatchEvent(new CustomEvent("boneyard:update-ready"));
    });
    addEventListener("load", function () {
      navigator.serviceWorker.register("sw.js").catch(function (err) {
        console.warn("Boneyard: offline support is unavailable:", err);
      });
    });
  }
})();
