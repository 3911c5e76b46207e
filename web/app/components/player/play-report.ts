import { PLAY_REPORT_PATH, QUALIFIED_PLAY_SECONDS } from "@contracts/player-texts";
import { TOKEN_KEY } from "../../session/keys";
import { currentItem, playerStore } from "./player-store";

const RETRY_AFTER_MS = 10_000;
/** One listening tick never counts more than this (a frozen tab, a suspended laptop). */
const MAX_TICK_SECONDS = 2;

let inFlight = false;
let lastAttempt = -Infinity;

/** Catalogue items have whole-number ids; external hits are not ours to count. */
const catalogueId = (id: string | number) => {
  const n = Number(id);
  return Number.isInteger(n) && n > 0 ? n : null;
};

/**
 * Counts real listening: wall-clock time while the media actually plays (not paused, not
 * seeking, enough data). Seeking forward adds nothing, so skipping through a mix never makes
 * a qualified play; after 30 s the play is reported once for this playback id.
 */
export function startListeningClock(media: () => HTMLMediaElement | null): () => void {
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    const seconds = Math.min(Math.max(0, now - last) / 1000, MAX_TICK_SECONDS);
    last = now;
    const el = media();
    if (!el || el.paused || el.seeking || el.readyState < 3) return;
    playerStore.getState().addListened(seconds);
    void reportIfQualified(now);
  }, 1000);
  return () => clearInterval(timer);
}

async function reportIfQualified(now: number) {
  const s = playerStore.getState();
  const item = currentItem(s);
  const playback = s.playback;
  if (!item || !playback || playback.reported || playback.listened < QUALIFIED_PLAY_SECONDS) return;
  const itemId = catalogueId(item.id);
  if (itemId === null) return playerStore.getState().markReported();
  if (inFlight || now - lastAttempt < RETRY_AFTER_MS) return;
  inFlight = true;
  lastAttempt = now;
  try {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(PLAY_REPORT_PATH, {
      method: "POST",
      headers,
      keepalive: true,
      body: JSON.stringify({ itemId, playbackId: playback.id, secondsListened: Math.floor(playback.listened) }),
    });
    // Recorded, already recorded, or refused for good (4xx): never send this playback again.
    if (res.status < 500 && playerStore.getState().playback?.id === playback.id) playerStore.getState().markReported();
  } catch {
    // Offline: the next tick after RETRY_AFTER_MS tries again with the same playback id.
  } finally {
    inFlight = false;
  }
}
