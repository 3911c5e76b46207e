/**
 * Where a listener stopped in each suite. Guests keep it in this browser; for members it is
 * also kept on the server (account-sync.ts: merged on login, newest wins, then synced). Only
 * worth offering inside long media, away from both ends.
 */
const KEY = "dj-player-resume";
const MAX_ENTRIES = 100;
const MIN_OFFER_SECONDS = 10;
const END_MARGIN_SECONDS = 15;

interface ResumeEntry {
  position: number;
  duration: number;
  /** When it was written (Unix ms): between devices, the newest wins. */
  at: number;
}
type ResumeMap = Record<string, ResumeEntry>;

/** One resume point with its item id (position 0: the listener finished or went back to the start). */
export interface ResumePoint extends ResumeEntry {
  id: string;
}

const listeners = new Set<() => void>();

function read(): ResumeMap {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    return parsed && typeof parsed === "object" ? (parsed as ResumeMap) : {};
  } catch {
    return {};
  }
}

function write(map: ResumeMap) {
  // Keep the most recent entries only.
  const keys = Object.keys(map).sort((a, b) => map[b].at - map[a].at);
  for (const old of keys.slice(MAX_ENTRIES)) delete map[old];
  try {
    localStorage.setItem(KEY, JSON.stringify(map));
  } catch {
    // Storage full or disabled: resuming is a convenience.
  }
}

export function saveResume(id: string | number, position: number, duration: number, now = Date.now()) {
  if (typeof localStorage === "undefined" || !Number.isFinite(position)) return;
  const map = read();
  const key = String(id);
  if (position < MIN_OFFER_SECONDS || (duration > 0 && position > duration - END_MARGIN_SECONDS)) {
    if (!(key in map) || map[key].position === 0) return;
    // Kept as "from the start" rather than deleted, so an older point elsewhere cannot come back.
    map[key] = { position: 0, duration, at: now };
  } else {
    map[key] = { position, duration, at: now };
  }
  write(map);
}

export function readResume(id: string | number): number | null {
  if (typeof localStorage === "undefined") return null;
  const entry = read()[String(id)];
  return entry && typeof entry.position === "number" && entry.position >= MIN_OFFER_SECONDS ? entry.position : null;
}

/** Every stored point, newest first. */
export function resumePoints(): ResumePoint[] {
  if (typeof localStorage === "undefined") return [];
  const map = read();
  return Object.entries(map)
    .filter(([, e]) => typeof e?.position === "number" && typeof e.at === "number")
    .map(([id, e]) => ({ id, position: e.position, duration: e.duration ?? 0, at: e.at }))
    .sort((a, b) => b.at - a.at);
}

/** Takes the points that are newer than this browser's (from the account); returns how many. */
export function mergeResumePoints(points: readonly ResumePoint[]): number {
  if (typeof localStorage === "undefined") return 0;
  const map = read();
  let taken = 0;
  for (const p of points) {
    const mine = map[p.id];
    if (mine && mine.at >= p.at) continue;
    map[p.id] = { position: p.position, duration: p.duration, at: p.at };
    taken++;
  }
  if (taken) {
    write(map);
    for (const listener of listeners) listener();
  }
  return taken;
}

/** Called when points arrive from the account (the detail page offers its resume point again). */
export function onResumeMerged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
