import { and, eq, max } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { items, playEvents } from "../../db/schema/index.js";
import { chinaDay } from "../../lib/china-day.js";
import { addDailyCount } from "../dashboard/daily-counts-repo.js";

export interface NewPlay {
  itemId: number;
  visitorId: string;
  userId: number | null;
  playbackId: string;
  secondsListened: number;
  playedAt: Date;
}

export function playsRepo(db: AppDatabase) {
  return {
    async itemIsPlayable(itemId: number): Promise<boolean> {
      const rows = await db
        .select({ id: items.id })
        .from(items)
        .where(and(eq(items.id, itemId), eq(items.status, "normal")));
      return rows.length > 0;
    },

    async playbackRecorded(playbackId: string): Promise<boolean> {
      const rows = await db.select({ id: playEvents.id }).from(playEvents).where(eq(playEvents.playbackId, playbackId));
      return rows.length > 0;
    },

    /** When this visitor's latest qualified play was recorded, if any. */
    async lastPlayAt(visitorId: string): Promise<Date | undefined> {
      const [row] = await db.select({ at: max(playEvents.playedAt) }).from(playEvents).where(eq(playEvents.visitorId, visitorId));
      return row?.at ?? undefined;
    },

    /**
     * Inserts the play unless its playback is already recorded; true when inserted. The day's
     * play count (daily_counters 'play', ADR 0059) is added in the same transaction: a recorded
     * play is always counted, and deleting its suite later leaves the count alone.
     */
    async insertOnce(play: NewPlay): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .insert(playEvents)
          .values(play)
          .onConflictDoNothing({ target: playEvents.playbackId })
          .returning({ id: playEvents.id });
        if (rows.length === 0) return false;
        await addDailyCount(tx, chinaDay(play.playedAt), "play");
        return true;
      });
    },
  };
}
