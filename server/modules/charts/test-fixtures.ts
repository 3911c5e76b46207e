import { and, asc, eq, sql } from "drizzle-orm";
import { bulkInsert } from "../../db/bulk.js";
import type { AppDatabase } from "../../db/open.js";
import { chartEntries, items, playEvents, type ChartPeriod, type ItemKind } from "../../db/schema/index.js";
import { inProcessBus } from "../../events/bus.js";
import { catalogueWriteService } from "../catalogue-write/service.js";
import type { NewItem } from "../catalogue-write/types.js";
import { TALLY_KEY } from "./tally-repo.js";

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** The fixed `now` of the chart tests. */
export const NOW = new Date("2026-06-15T12:00:00.000Z");

let playback = 0;

/** Test data for the charts: items and play events at known times. */
export function chartFixtures(db: AppDatabase) {
  const writes = catalogueWriteService(db, inProcessBus());
  return {
    async reset() {
      await db.execute(sql`truncate play_events, chart_entries, item_plays`);
      const all = await db.select({ id: items.id }).from(items);
      await writes.deleteItems(all.map((r) => r.id));
      // The running counts start over with the events (see tally-repo.ts).
      await db.execute(sql`delete from app_settings where key = ${TALLY_KEY}`);
    },

    async item(site: string, kind: ItemKind, title: string, extra: Partial<NewItem> = {}): Promise<number> {
      return writes.createItem({ kind, title, sourceSite: site, playUrl: `/media/${title}.mp3`, ...extra });
    },

    /** `count` plays of `itemId`, each `ageMs` before `base` (negative: after it). */
    async plays(itemId: number, count: number, ageMs: number, base = NOW): Promise<void> {
      const playedAt = new Date(base.getTime() - ageMs);
      const rows = Array.from({ length: count }, () => ({
        itemId,
        visitorId: "v",
        playbackId: `t-${process.pid}-${++playback}`,
        playedAt,
        secondsListened: 60,
      }));
      await bulkInsert(db, playEvents, rows);
    },

    /** Stored chart: [itemId, plays] by rank. */
    async chart(site: string, kind: ItemKind, period: ChartPeriod): Promise<[number, number][]> {
      const ce = chartEntries;
      const rows = await db
        .select({ item_id: ce.itemId, plays: ce.plays, rank: ce.rank })
        .from(ce)
        .where(and(eq(ce.site, site), eq(ce.kind, kind), eq(ce.period, period)))
        .orderBy(asc(ce.rank));
      rows.forEach((r, i) => {
        if (r.rank !== i + 1) throw new Error(`rank gap in ${site}/${kind}/${period}: ${r.rank} at ${i + 1}`);
      });
      return rows.map((r) => [r.item_id, r.plays]);
    },

    async groups(): Promise<string[]> {
      const ce = chartEntries;
      const rows = await db
        .selectDistinct({ g: sql<string>`${ce.site} || '/' || ${ce.kind} || '/' || ${ce.period}` })
        .from(ce)
        .orderBy(sql`1`);
      return rows.map((r) => r.g);
    },
  };
}
