import { sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { queryRows } from "../../db/sql.js";

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
      const rows = await queryRows<{ id: number }>(db, sql`select id from items where id = ${itemId} and status = 'normal'`);
      return rows.length > 0;
    },

    async playbackRecorded(playbackId: string): Promise<boolean> {
      const rows = await queryRows<{ id: number }>(db, sql`select id from play_events where playback_id = ${playbackId}`);
      return rows.length > 0;
    },

    /** When this visitor's latest qualified play was recorded, if any. */
    async lastPlayAt(visitorId: string): Promise<Date | undefined> {
      const [row] = await queryRows<{ at: Date | string | null }>(
        db,
        sql`select max(played_at) as at from play_events where visitor_id = ${visitorId}`,
      );
      return row?.at ? new Date(row.at) : undefined;
    },

    /** Inserts the play unless its playback is already recorded; true when inserted. */
    async insertOnce(play: NewPlay): Promise<boolean> {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`insert into play_events (item_id, visitor_id, user_id, playback_id, seconds_listened, played_at)
            values (${play.itemId}, ${play.visitorId}, ${play.userId}, ${play.playbackId}, ${play.secondsListened}, ${play.playedAt})
            on conflict (playback_id) do nothing returning id`,
      );
      return rows.length > 0;
    },
  };
}
