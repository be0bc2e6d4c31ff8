// Boneyard's service worker (tools/build_site.py writes sw.js from this template).
// It precaches every file of this version of the site under a cache named after the version, serves
// from that cache first, and deletes older versions' caches once it takes over. A changed site is a
// changed sw.js, so the browser installs the new version as a whole: never a mix of two versions.
const VERSION = "__VERSION__";
const CACHE = "boneyard-" + VERSION;
const FILES = __FILES__;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(FILES.map((file) => new Request(file, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key.startsWith("boneyard-") && key !== CACHE).map((key) => caches.delete(key))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.endsWith("/version.json")) return; // always from the network
  if (url.pathname.endsWith("/__boneyard_version")) { // which version this worker serves
    event.respondWith(new Response(VERSION, { headers: { "Content-Type": "text/plain" } }));
    return;
  }
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(request, { ignoreSearch: true }).then((hit) => hit || fetch(request))
    )
  );
});
