/*
 * The offline page's script (ADR 0066): reload once the network is back, name the site from
 * the kept manifest, and list the member's favourites if the service worker kept their list
 * while online, for this member only (the SHA-256 of the bearer header it was asked with).
 */
(() => {
  const reload = () => location.reload();
  document.getElementById("retry").addEventListener("click", reload);
  // Back online: reload once the site answers (a HEAD passes the service worker, which keeps
  // only GETs, so a kept copy cannot pass for the network). "online" may come before the
  // network is usable, or never (a dead link without a network change): asked every 10 s too.
  let checking = false;
  const reloadWhenReachable = async () => {
    if (checking) return;
    checking = true;
    try {
      const res = await fetch(location.href, { method: "HEAD", cache: "no-store" });
      if (res.status < 500) reload();
    } catch {
      // Still offline.
    } finally {
      checking = false;
    }
  };
  window.addEventListener("online", () => {
    void reloadWhenReachable();
    setTimeout(() => void reloadWhenReachable(), 1000);
  });
  setInterval(() => void reloadWhenReachable(), 10_000);
  if (!("caches" in window)) return;

  caches
    .match("/manifest.webmanifest")
    .then((res) => (res ? res.json() : null))
    .then((manifest) => {
      if (!manifest || typeof manifest.name !== "string") return;
      document.getElementById("site-name").textContent = manifest.name;
      document.title = `网络已断开 - ${manifest.name}`;
    })
    .catch(() => undefined);

  void showFavourites().catch(() => undefined);

  async function showFavourites() {
    const token = localStorage.getItem("token");
    if (!token || !crypto.subtle) return;
    const kept = await (await caches.open("favourites")).match("/api/user/favorites");
    if (!kept || kept.headers.get("x-member") !== (await sha256(`Bearer ${token}`))) return;
    const list = (await kept.json())?.data?.list;
    if (!Array.isArray(list) || list.length === 0) return;
    const ul = document.getElementById("favourite-list");
    for (const entry of list) {
      const li = document.createElement("li");
      const kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = entry.kind === "single" ? "单曲" : "套曲";
      const name = document.createElement("a");
      name.className = "name";
      name.textContent = String(entry.name ?? "");
      if (typeof entry.url === "string" && entry.url.startsWith("/")) name.href = entry.url;
      li.append(kind, name);
      if (entry.artist) {
        const artist = document.createElement("span");
        artist.className = "artist";
        artist.textContent = String(entry.artist);
        li.append(artist);
      }
      ul.append(li);
    }
    const saved = Number(kept.headers.get("x-saved-at"));
    if (saved > 0) document.getElementById("favourites-hint").textContent = `${new Date(saved).toLocaleString("zh-CN", { hour12: false })} 联网时的收藏，联网后可播放`;
    document.getElementById("favourites").hidden = false;
  }

  async function sha256(text) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  }
})();
