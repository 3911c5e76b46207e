/** Spec section 9: after a failed chunk load the page reloads at most once per 60 seconds. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;
export const CHUNK_RELOAD_KEY = "chunk-reload-at";

type SessionLike = Pick<Storage, "getItem" | "setItem">;

/**
 * Reloads unless a reload for the same reason happened less than 60 s ago (a broken deploy
 * must not loop). Returns whether it reloaded.
 */
export function reloadOnceForChunkError(
  storage: SessionLike | undefined,
  reload: () => void,
  now = Date.now(),
): boolean {
  let last = 0;
  try {
    last = Number(storage?.getItem(CHUNK_RELOAD_KEY) ?? 0) || 0;
  } catch {
    // Storage can be unavailable (privacy mode); then reload without a memory.
  }
  if (last && now - last < CHUNK_RELOAD_GUARD_MS) return false;
  try {
    storage?.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    // As above.
  }
  reload();
  return true;
}

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return CHUNK_ERROR.test(message);
}

function safeSession(win: Window): SessionLike | undefined {
  try {
    return win.sessionStorage;
  } catch {
    return undefined;
  }
}

export function reloadForChunkError(win: Window = window): boolean {
  return reloadOnceForChunkError(safeSession(win), () => win.location.reload());
}

/**
 * Vite reports failed preloads of dynamic imports as `vite:preloadError`; a failed `import()`
 * that nobody handled surfaces as an unhandled rejection. (React Router reloads on its own
 * when a route module fails to load; that reload brings the new document and its modules.)
 */
export function installChunkErrorReload(win: Window) {
  win.addEventListener("vite:preloadError", (event) => {
    if (reloadForChunkError(win)) event.preventDefault();
  });
  win.addEventListener("unhandledrejection", (event) => {
    if (isChunkLoadError(event.reason)) reloadForChunkError(win);
  });
}

/** `import()` for React.lazy that reloads the page (guarded) when the chunk cannot be fetched. */
export function importWithReload<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().catch((error: unknown) => {
      if (isChunkLoadError(error) && reloadForChunkError()) return new Promise<T>(() => {});
      throw error;
    });
}
