// The service worker of Kości. Served from /sw.js (tracker/main/app_shell.py), which fills in
// CONFIG, so that it controls every page of the site. It does two things and no more:
// - the app shell (the CSS, the scripts, the icons) comes from a cache filled at install, so
//   pages draw fast on a slow Wi-Fi. The cache's name carries a hash of those files and of the
//   offline page's templates: a new version of the app installs a fresh copy, drops the old one;
// - a page that cannot be reached (the server is off, the phone left the Wi-Fi, or a gateway in
//   front answers for a server that is restarting) shows the offline page, which tries again by
//   itself (static/js/app.js), instead of the browser's error. It is kept in every language of
//   the app, and shown in the language of the pages: each page tells the worker its <html lang>
//   (static/js/app.js), which the worker keeps in its cache, as it may be stopped and woken.
// Pages and API answers are never stored: they belong to an account and change with every turn
// (the server sends them `no-store`). They always come from the network, as without this worker.
"use strict";

const CONFIG = {/* filled in by the /sw.js route */};
const CACHE_PREFIX = "kosci-";
const CACHE = CACHE_PREFIX + CONFIG.version;
// The shell's files do not vary by anything a request could say differently (the worker's
// requests carry no cookies, nor an Accept-Encoding the browser adds later).
const MATCH = { ignoreVary: true };
// Where the worker keeps the language the pages last said (a one-word answer in its cache).
const LANGUAGE_KEY = "/offline?language";
let language = null; // the same, while the worker runs

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // `reload`: from the server, not from a copy of the previous version in the HTTP cache.
      await cache.addAll(CONFIG.shell.map((url) => new Request(url, { cache: "reload" })));
      // The offline page as a signed-out visitor gets it: no account's links in a cache.
      for (const url of Object.values(CONFIG.offline)) {
        const offline = await fetch(new Request(url, { cache: "reload", credentials: "omit" }));
        if (!offline.ok) throw new Error(`${url}: ${offline.status}`);
        await cache.put(url, offline);
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // The page's request starts while the worker wakes up, not after.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// A page says its language (`{ language: "en" }`): the offline page will be in it.
self.addEventListener("message", (event) => {
  const said = event.data && event.data.language;
  if (typeof said === "string" && Object.hasOwn(CONFIG.offline, said) && said !== language) {
    language = said;
    const kept = caches.open(CACHE).then((cache) => cache.put(LANGUAGE_KEY, new Response(said)));
    event.waitUntil(kept);
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // forms go to the server as they are
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(staticFile(request));
  }
  // Anything else (the API, the fields turn.js fetches, the manifest) is left to the browser.
});

// A page: always from the network, never stored. The offline page when the network fails, and
// when a gateway in front (nginx, Caddy) answers in the app's place: 502 (it cannot reach the
// app), 503 (no app there) or 504 (the app too slow). nginx's bare "502 Bad Gateway" while
// `serve` restarts would stay on the phone's screen; the offline page tries again by itself.
// The app's own answers are shown as they are: a 500, a 404, and its own 503 (the database does
// not answer), which says what is wrong and carries CONFIG.ownAnswer (tracker/errors.py).
async function page(event) {
  let response;
  try {
    response = (await event.preloadResponse) || (await fetch(event.request));
  } catch {
    return (await offlinePage()) || Response.error();
  }
  return (isGatewaysAnswer(response) && (await offlinePage())) || response;
}

function isGatewaysAnswer(response) {
  const status = response.status;
  return status >= 502 && status <= 504 && !response.headers.has(CONFIG.ownAnswer);
}

// The offline page in the pages' language, as kept at install.
async function offlinePage() {
  const cache = await caches.open(CACHE);
  return cache.match(CONFIG.offline[await pagesLanguage(cache)], MATCH);
}

// The language the pages last said; the app's default before any page did.
async function pagesLanguage(cache) {
  if (language === null) {
    const kept = await cache.match(LANGUAGE_KEY, MATCH);
    const said = kept ? await kept.text() : "";
    language = Object.hasOwn(CONFIG.offline, said) ? said : CONFIG.language;
  }
  return language;
}

// A static file: from the cache of this version, else from the network (and kept).
async function staticFile(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, MATCH);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}
