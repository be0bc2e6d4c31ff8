// Boneyard's service worker (tools/build_site.py writes sw.js from this template).
// It precaches every file of this version of the site under a cache named after the version, serves
// from that cache first, and deletes older versions' caches once it takes over. A changed site is a
// changed sw.js, so the browser installs the new version as a whole: never a mix of two versions.
const VERSION = "__VERSION__";
const CACHE = "boneyard-" + VERSION;
const FILES = __FILES__;

// A new version waits until a page lets it take over (the message below): a page in play keeps its own
// version's files until the player chooses to reload. Pages of versions before that message existed
// wait for the new worker to take over by itself, so for them it does (their boot.js never says it).
self.addEventListener("install", (event) => {
  route(event);
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(FILES.map((file) => new Request(file, { cache: "reload" })))
        .then(() => Promise.all(FILES.filter((file) => file.endsWith(".snap.gz")).map((file) => inflate(cache, file)))))
      .then(() => previousPagesAsk())
      .then((ask) => (ask ? undefined : self.skipWaiting()))
  );
});

// The page itself (a visit to the app's address) comes straight from this version's cache, without
// waiting for this worker to start (Chromium's static routing): on a return visit the loading screen
// paints that much sooner, and the worker starts meanwhile for the files that come through it. A
// browser without static routing, or any other address, goes through the fetch handler below.
function route(event) {
  if (!event.addRoutes || typeof URLPattern !== "function") return;
  try {
    const page = new URLPattern({ pathname: new URL("./", self.registration.scope).pathname, search: "" });
    event.waitUntil(
      event
        .addRoutes([{ condition: { urlPattern: page, requestMode: "navigate" }, source: { cacheName: CACHE } }])
        .catch((error) => console.info("Boneyard: no static route for the page:", error))
    );
  } catch (error) {
    console.info("Boneyard: no static route for the page:", error);
  }
}

// The memory snapshot travels gzipped (4.3 MB instead of 11) and the page inflates it while it downloads;
// from this cache it is read on every later start, so it is kept inflated here, once: a return visit
// then only copies it. The header tells the page's loader (js/pyodide-snapshot.mjs) so; if inflating
// fails, the gzipped copy stays and the page inflates it as on the first visit.
async function inflate(cache, file) {
  try {
    const packed = await cache.match(file);
    if (!packed || packed.headers.get("X-Boneyard-Inflated")) return;
    const body = await new Response(packed.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    const headers = { "Content-Type": "application/octet-stream", "X-Boneyard-Inflated": "1" };
    await cache.put(file, new Response(body, { headers }));
  } catch (error) {
    console.warn("Boneyard: the snapshot stays gzipped in the cache:", error);
  }
}

// Tell whether the pages of the version now in charge ask for the take-over themselves.
async function previousPagesAsk() {
  for (const key of await caches.keys()) {
    if (!key.startsWith("boneyard-") || key === CACHE) continue;
    const boot = await (await caches.open(key)).match("js/boot.js", { ignoreSearch: true });
    if (boot && (await boot.text()).includes("skip-waiting")) return true;
  }
  return false;
}

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
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
  // An address without a query is looked up by its key: Chromium's cache answers that from its index,
  // while ignoreSearch reads every entry of the cache (the whole site, on every request of a start). Only
  // an address with a query (the page's `?seed=42`) needs ignoreSearch to find its file.
  const options = url.search ? { ignoreSearch: true } : undefined;
  event.respondWith(
    caches.open(CACHE).then((cache) => cache.match(request, options).then((hit) => hit || fetch(request)))
  );
});
