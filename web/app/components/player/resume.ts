/**
 * Where a listener stopped in each suite (guests: this browser; the accounts issue adds a
 * server copy for members). Only worth offering inside long media, away from both ends.
 */
const KEY = "dj-player-resume";
const MAX_ENTRIES = 100;
const MIN_OFFER_SECONDS = 10;
const END_MARGIN_SECONDS = 15;

interface ResumeEntry {
  position: number;
  duration: number;
  at: number;
}
type ResumeMap = Record<string, ResumeEntry>;

function read(): ResumeMap {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    return parsed && typeof parsed === "object" ? (parsed as ResumeMap) : {};
  } catch {
    return {};
  }
}

function write(map: ResumeMap) {
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
    if (!(key in map)) return;
    delete map[key];
  } else {
    map[key] = { position, duration, at: now };
  }
  // Keep the most recent entries only.
  const keys = Object.keys(map).sort((a, b) => map[b].at - map[a].at);
  for (const old of keys.slice(MAX_ENTRIES)) delete map[old];
  write(map);
}

export function readResume(id: string | number): number | null {
  if (typeof localStorage === "undefined") return null;
  const entry = read()[String(id)];
  return entry && typeof entry.position === "number" && entry.position >= MIN_OFFER_SECONDS ? entry.position : null;
}
