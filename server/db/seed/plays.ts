import type { playEvents } from "../schema/index.js";
import { Rng } from "./prng.js";

export type NewPlayEvent = typeof playEvents.$inferInsert;

export interface PlayTarget {
  id: number;
  durationSec: number | null;
}

const DAY_MS = 86_400_000;
const HISTORY_DAYS = 100;
const VISITORS = 5000;
/** How long an item stays in the trending set: shorter than a week, so day and week charts differ. */
const TREND_DAYS = 3;

/**
 * Play event number j over the last 100 days, shaped so charts have something to show:
 * recent days are busier, a few evergreen hits take most plays, and 40% of plays go to a
 * trending set that drifts every three days, so the day/week/month/quarter charts differ.
 */
export function generatePlay(j: number, targets: PlayTarget[], now: Date): NewPlayEvent {
  const rng = Rng.for("play", j);
  const daysAgo = HISTORY_DAYS * Math.pow(rng.next(), 1.6);
  const n = targets.length;
  // Trending plays are more concentrated than evergreen ones, so they lead the short windows.
  const trending = rng.chance(0.4);
  const drift = trending ? (1 + Math.floor(daysAgo / TREND_DAYS)) * Math.max(1, Math.floor(n * 0.137)) : 0;
  const rank = Math.floor(n * Math.pow(rng.next(), trending ? 4 : 2));
  const target = targets[(rank + drift) % n];
  const duration = target.durationSec ?? 300;
  return {
    itemId: target.id,
    visitorId: `demo-visitor-${Math.floor(VISITORS * Math.pow(rng.next(), 2))}`,
    playbackId: `demo-play-${j}`,
    playedAt: new Date(now.getTime() - Math.floor(daysAgo * DAY_MS)),
    secondsListened: 30 + Math.floor(rng.next() * Math.max(0, duration - 30)),
  };
}
