import { PLAY_REPORT_PATH, PLAY_START_PATH, QUALIFIED_PLAY_SECONDS } from "@contracts/player-texts";
import { TOKEN_KEY } from "../../session/keys";
import { currentItem, playerStore } from "./player-store";

const RETRY_AFTER_MS = 10_000;
/** One listening tick never counts more than this (a frozen tab, a suspended laptop). */
const MAX_TICK_SECONDS = 2;
const QUALIFIED_MS = QUALIFIED_PLAY_SECONDS * 1000;

let inFlight = false;
let lastAttempt = -Infinity;

/**
 * The start report of the current playback. The server counts a qualified play only 30 s or
 * more after it saw the playback start (ADR 0014), so the report waits for that too: `since`
 * is when, on this page's clock, the server's start lies at the latest.
 */
let start: { playbackId: string; since: number | null; inFlight: boolean; lastAttempt: number } | null = null;

/** Catalogue items have whole-number ids; external hits are not ours to count. */
const catalogueId = (id: string | number) => {
  const n = Number(id);
  return Number.isInteger(n) && n > 0 ? n : null;
};

function postJson(path: string, body: object): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(path, { method: "POST", headers, keepalive: true, body: JSON.stringify(body) });
}

/** The playback that can still be reported, and its catalogue item id. */
function reportable() {
  const s = playerStore.getState();
  const item = currentItem(s);
  const playback = s.playback;
  if (!item || !playback || playback.reported) return null;
  return { itemId: catalogueId(item.id), playback };
}

/**
 * Tells the server a playback really started playing (the media element's `playing`), once
 * per playback on this page; a reload sends it again, and the server keeps the first.
 */
export function notePlaybackStarted() {
  const current = reportable();
  if (!current || current.itemId === null || start?.playbackId === current.playback.id) return;
  void sendStart(current.itemId, current.playback.id, Date.now());
}

async function sendStart(itemId: number, playbackId: string, now: number) {
  if (start?.playbackId !== playbackId) start = { playbackId, since: null, inFlight: false, lastAttempt: -Infinity };
  const entry = start;
  entry.inFlight = true;
  entry.lastAttempt = now;
  try {
    const res = await postJson(PLAY_START_PATH, { itemId, playbackId });
    if (res.ok) {
      const body = (await res.json()) as { data?: { startedSecondsAgo?: number } };
      entry.since = Date.now() - (body.data?.startedSecondsAgo ?? 0) * 1000;
    } else if (res.status < 500 && playerStore.getState().playback?.id === playbackId) {
      // Refused for good (a hidden item, too many plays from this address): nothing to report.
      playerStore.getState().markReported();
    }
  } catch {
    // Offline: a later listening tick sends it again.
  } finally {
    entry.inFlight = false;
  }
}

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
  const current = reportable();
  if (!current) return;
  const { itemId, playback } = current;
  if (itemId === null) {
    if (playback.listened >= QUALIFIED_PLAY_SECONDS) playerStore.getState().markReported();
    return;
  }
  // The server must see the start: send it again if it never got there (offline, a reload).
  const mine = start?.playbackId === playback.id ? start : null;
  if (mine?.since == null) {
    if (!mine?.inFlight && now - (mine?.lastAttempt ?? -Infinity) >= RETRY_AFTER_MS) void sendStart(itemId, playback.id, now);
    return;
  }
  if (playback.listened < QUALIFIED_PLAY_SECONDS) return;
  const sinceStart = now - mine.since;
  if (sinceStart < QUALIFIED_MS) return;
  if (inFlight || now - lastAttempt < RETRY_AFTER_MS) return;
  inFlight = true;
  lastAttempt = now;
  try {
    // Never more than the server can have seen: the time since its start.
    const secondsListened = Math.floor(Math.min(playback.listened, sinceStart / 1000));
    const res = await postJson(PLAY_REPORT_PATH, { itemId, playbackId: playback.id, secondsListened });
    // Recorded, already recorded, or refused for good (4xx): never send this playback again.
    if (res.status < 500 && playerStore.getState().playback?.id === playback.id) playerStore.getState().markReported();
  } catch {
    // Offline: the next tick after RETRY_AFTER_MS tries again with the same playback id.
  } finally {
    inFlight = false;
  }
}
