// The companion page's service worker: the page and its scripts and styles are kept, so the
// page opens with no connection (it shows the last state it saw, and catches up when the
// connection is back). The game itself is never cached: the server keeps it.
const CACHE = "carnage-companion-v2";
const SHELL = [
  "/static/companion.html", "/static/css/carnage.css", "/static/css/table.css", "/static/css/companion.css", "/static/odds.css",
  "/static/js/companion.js", "/static/js/api.js", "/static/js/dice.js", "/static/js/dicepad.js", "/static/js/templates.js",
  "/static/js/util.js", "/static/js/view.js", "/static/js/dashboard.js", "/static/odds-chart.js",
  "/static/favicon.svg",
];

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith("/companion/")) {
    // the page: from the network when there is one, else the kept copy (one page for every game)
    ev.respondWith(fetch(req).then((res) => {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put("/static/companion.html", copy));
      return res;
    }).catch(() => caches.match("/static/companion.html")));
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    // kept copies at once, refreshed from the network behind them
    ev.respondWith(caches.open(CACHE).then(async (c) => {
      const kept = await c.match(req);
      const fresh = fetch(req)
        .then((res) => { if (res.ok) c.put(req, res.clone()); return res; })
        .catch(() => kept || Response.error());
      return kept || fresh;
    }));
  }
});
