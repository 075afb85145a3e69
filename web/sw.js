// Offline after the first load: every file of the page (files.json, made
// by web/build.py) is cached when the worker installs. Requests go to the
// network first, so a new build is seen as soon as it is served, and fall
// back to the cache when there is no network (at the table).
const CACHE = "moontable-page";

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const list = await (await fetch("files.json", { cache: "no-store" })).json();
      const cache = await caches.open(CACHE);
      await cache.addAll(["./", "files.json", ...list.files]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        const res = await fetch(req, { cache: "no-cache" });
        if (res.ok) cache.put(req, res.clone());
        return res;
      } catch (err) {
        const hit = await cache.match(req, { ignoreSearch: true });
        if (hit) return hit;
        throw err;
      }
    })(),
  );
});
