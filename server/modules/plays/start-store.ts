import type { Clock } from "../../lib/clock.js";

/** A playback our server saw begin: who, what, and when (by the server's clock). */
export interface PlayStart {
  visitorId: string;
  itemId: number;
  /** Milliseconds since the epoch. */
  startedAt: number;
}

/**
 * Where play starts wait for their qualified report. In process now; when several instances
 * run, a start and its report may reach different ones, so roadmap 9 puts this behind Redis
 * with the same three calls.
 */
export interface PlayStartStore {
  /** Keeps `start` unless the playback already has one; answers the start that is kept. */
  add(playbackId: string, start: PlayStart): Promise<PlayStart>;
  get(playbackId: string): Promise<PlayStart | undefined>;
  delete(playbackId: string): Promise<void>;
}

/** Starts kept at most; past it the oldest go (a report for them is then refused). */
export const PLAY_STARTS_MAX = 100_000;
/** A start is kept this long: the longest listening a report may claim (a day), and an hour. */
export const PLAY_START_TTL_MS = 25 * 3600_000;

/**
 * Bounded, oldest out (a Map iterates in insertion order), expired by the injected clock. A store,
 * not a cache (ADR 0054): a start dropped is a play lost, so it is never in the cache registry.
 */
export function memoryPlayStartStore(
  clock: Clock,
  { max = PLAY_STARTS_MAX, ttlMs = PLAY_START_TTL_MS }: { max?: number; ttlMs?: number } = {},
): PlayStartStore {
  const starts = new Map<string, PlayStart>();
  const expired = (s: PlayStart) => clock().getTime() - s.startedAt > ttlMs;
  return {
    async add(playbackId, start) {
      const kept = starts.get(playbackId);
      if (kept && !expired(kept)) return kept;
      starts.delete(playbackId);
      starts.set(playbackId, start);
      for (const [id, s] of starts) {
        if (starts.size <= max && !expired(s)) break;
        starts.delete(id);
      }
      return start;
    },
    async get(playbackId) {
      const start = starts.get(playbackId);
      if (start && expired(start)) {
        starts.delete(playbackId);
        return undefined;
      }
      return start;
    },
    async delete(playbackId) {
      starts.delete(playbackId);
    },
  };
}
