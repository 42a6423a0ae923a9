// The service worker (served at /sw.js by web/app_shell.py, which fills in the three constants below).
// One cache per build: a build's pages and files are fetched together when it installs and served together,
// so a page never runs one build's scripts with another's. The learning pages (rules, odds, calculators, lab,
// practice) come from the cache when the network fails; the tables and everything else need the server, and
// offline they get the offline page. The API and the sockets are never cached.
const BUILD = "__BUILD__";
const PRECACHE = "__PRECACHE__";
const OFFLINE_PAGES = new Set("__OFFLINE_PAGES__");
const CACHE = `tp-${BUILD}`;
const clientBuilds = new Map(); // page (client id) -> the build its HTML came from

self.addEventListener("install", (event) => {
  // "reload": past the HTTP cache, so the new build's files are fetched, never an older copy
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE.map((u) => new Request(u, { cache: "reload" })))));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tp-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting(); // the page's "reload into the new version"
});

function cacheKey(url) {
  // a page is cached under its path (and the odds page's deck choice), never its other query parameters
  const u = new URL(url);
  if (u.pathname === "/odds") {
    const d = u.searchParams.get("decks");
    return d && d !== "2" ? `/odds?decks=${d}` : "/odds";
  }
  return u.pathname;
}

async function page(event) {
  const url = new URL(event.request.url);
  const offlinePage = OFFLINE_PAGES.has(url.pathname);
  try {
    const response = await fetch(event.request);
    const build = response.headers.get("X-TP-Build");
    if (event.resultingClientId && build) clientBuilds.set(event.resultingClientId, build);
    if (offlinePage && response.ok && build === BUILD) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(cacheKey(url), copy));
    }
    return response;
  } catch (err) {
    const cache = await caches.open(CACHE);
    if (event.resultingClientId) clientBuilds.set(event.resultingClientId, BUILD);
    return (offlinePage && await cache.match(cacheKey(url))) || await cache.match("/offline") || Response.error();
  }
}

async function file(event) {
  // a page made by another build (the server was deployed after this worker installed) gets its files from
  // the network, revalidated: never this build's copies
  const build = clientBuilds.get(event.clientId);
  if (build && build !== BUILD) return fetch(event.request, { cache: "no-cache" });
  const cache = await caches.open(CACHE);
  const hit = await cache.match(event.request, { ignoreSearch: true });
  if (hit) return hit;
  return fetch(event.request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") { event.respondWith(page(event)); return; }
  if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest"
      || url.pathname === "/offline-data/practice.json") {
    event.respondWith(file(event));
  }
  // everything else (the API, sockets, other pages' data) goes to the network as usual
});
