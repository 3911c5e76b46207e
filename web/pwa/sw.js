/*
 * The site's service worker (ADR 0066), plain JavaScript served at /sw.js with scope / and
 * "Cache-Control: no-cache". The server writes this file's version into VERSION (a hash of it
 * and of the offline page), so any change is a new worker, which takes over at once
 * (skipWaiting, clients.claim): the next load runs it.
 *
 * What it keeps, and nothing else:
 * - the shell (the offline page, its script, the manifest and the icons), at install;
 * - hashed static files under /assets/ (their names change with their content): cache first;
 * - the member's first page of favourites, when an answer comes in online, for the offline page.
 * Pages come from the network; when it fails, the offline page "网络已断开" is shown instead.
 * Never kept: other API answers, the back office (/panda), audio and video, uploads, any POST.
 */
const VERSION = "__VERSION__";
const SHELL = `shell-${VERSION}`;
/** Hashed files: the same name is the same bytes, so they outlive a version (trimmed by count). */
const ASSETS = "assets";
const FAVOURITES = "favourites";
const KEEP = [SHELL, ASSETS, FAVOURITES];
const MAX_ASSETS = 150;

const OFFLINE_PAGE = "/offline.html";
const SHELL_FILES = [OFFLINE_PAGE, "/offline.js", "/manifest.webmanifest", "/favicon.svg", "/icons/icon-192.png"];
const FAVOURITES_PATH = "/api/user/favorites";
/** Where the offline page finds the favourites (one entry, whatever page size was asked). */
const FAVOURITES_KEY = FAVOURITES_PATH;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      // Past the browser's HTTP cache: the shell of this version, not an hour-old copy.
      .then((cache) => cache.addAll(SHELL_FILES.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => !KEEP.includes(name)).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

/** Whether the path belongs to a part that is never kept: the back office, media, uploads. */
function neverKept(path) {
  return path === "/panda" || path.startsWith("/panda/") || path.startsWith("/panda.") || path.startsWith("/pandaadmin/") || path.startsWith("/media/") || path.startsWith("/uploads/");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  // Other sites (covers, streams of the source sites) go to the network as the page asked.
  if (url.origin !== self.location.origin) return;
  if (request.headers.has("range") || request.destination === "audio" || request.destination === "video") return;
  const path = url.pathname;
  if (neverKept(path)) return;
  if (path === FAVOURITES_PATH) {
    event.respondWith(favourites(request, url));
    return;
  }
  if (path.startsWith("/api/")) return;
  if (path.startsWith("/assets/")) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request));
    return;
  }
  if (SHELL_FILES.includes(path)) event.respondWith(networkThenShell(request));
});

/** A hashed file: from the cache, else from the network and kept. */
async function cacheFirst(request) {
  const cache = await caches.open(ASSETS);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    await cache.put(request, response.clone());
    void trim(cache, MAX_ASSETS);
  }
  return response;
}

/** The oldest entries go first once the cache holds more than `max`. */
async function trim(cache, max) {
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - max))) await cache.delete(key);
}

/** A page from the network; without one, the offline page. */
async function pageOrOffline(request) {
  try {
    return await fetch(request);
  } catch {
    const offline = await caches.match(OFFLINE_PAGE, { cacheName: SHELL });
    return offline ?? new Response("网络已断开", { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
}

/** A shell file (the manifest follows the site title): the network's, kept; offline, the kept one. */
async function networkThenShell(request) {
  try {
    const response = await fetch(request);
    if (response.ok) await (await caches.open(SHELL)).put(new URL(request.url).pathname, response.clone());
    return response;
  } catch {
    return (await caches.match(new URL(request.url).pathname, { cacheName: SHELL })) ?? Response.error();
  }
}

/**
 * The favourites list passes through; its first page, answered with code 1, is kept for the
 * offline page under the SHA-256 of the member's Authorization header, which the offline page
 * compares with the token it holds: after a logout, or for another member, it shows nothing.
 */
async function favourites(request, url) {
  const response = await fetch(request);
  const auth = request.headers.get("authorization");
  if (response.ok && auth && (url.searchParams.get("page") ?? "1") === "1") {
    try {
      const body = await response.clone().text();
      if (JSON.parse(body).code === 1) {
        const kept = new Response(body, {
          headers: { "content-type": "application/json; charset=utf-8", "x-member": await sha256(auth), "x-saved-at": String(Date.now()) },
        });
        await (await caches.open(FAVOURITES)).put(FAVOURITES_KEY, kept);
      }
    } catch {
      // Not the list's answer: nothing kept.
    }
  }
  return response;
}

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
