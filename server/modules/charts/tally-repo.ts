import { eq, sql, type SQL } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { appSettings, itemPlays, playEvents } from "../../db/schema/index.js";
import { selectRows } from "../../db/sql.js";

/** Where the running counts of `item_plays` stand, in app_settings under this key. */
export const TALLY_KEY = "charts.tally";

/** The four counters of `item_plays`, in the order of the windows given to `advance`. */
export const TALLY_COLUMNS = ["day", "week", "month", "quarter"] as const;
export type TallyColumn = (typeof TALLY_COLUMNS)[number];

export interface TallyState {
  /** Highest play event id counted: every event with id <= watermark is in the counts. */
  watermark: number;
  /** The `now` the counts' windows ended at (ISO), or null when nothing was counted yet. */
  at: string | null;
}

export interface TallyWindow {
  column: TallyColumn;
  lengthMs: number;
}

type Tx = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

const ts = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
const between = (lo: number, hi: number) => sql`(${playEvents.playedAt} > ${ts(lo)} and ${playEvents.playedAt} <= ${ts(hi)})`;
const inRange = (lo: number, hi: number) => sql`case when ${between(lo, hi)} then 1 else 0 end`;

async function topId(db: Tx | AppDatabase): Promise<number> {
  const [{ top }] = await selectRows(db, { top: sql<number | string>`coalesce(max(${playEvents.id}), 0)::int8` }, (fields) => sql`select ${fields} from ${playEvents}`);
  return Number(top);
}

/**
 * SQL of the incremental counts behind the charts. A play event counts in window w when
 * `now - w.length < played_at <= now`. Moving the counts from the previous `now` to a new one
 * and adding new events only reads:
 * - events with id above the watermark (recorded since), counted in the new windows;
 * - older events whose played_at lies between the old and the new edge of a window: +1 when only
 *   the new window holds them, -1 when only the old one did.
 * Events in both windows (nearly all of them) are not read. `played_at` ranges use the
 * (played_at, item_id) index, new events the primary key.
 */
export function tallyRepo() {
  return {
    /**
     * The highest event id, read under the SHARE lock and released at once: once the lock is
     * granted no insert is in flight, so every event up to it is committed and visible to any
     * later transaction. A large backlog up to it can then be counted without the lock.
     */
    committedTop(db: AppDatabase): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`lock table ${playEvents} in share mode`);
        return topId(tx);
      });
    },

    /** The highest event id now (no lock: a rough size of the backlog). */
    top: (db: AppDatabase) => topId(db),

    async state(tx: Tx | AppDatabase): Promise<TallyState> {
      const [row] = await tx.select({ value: sql<TallyState>`${appSettings.value}` }).from(appSettings).where(eq(appSettings.key, TALLY_KEY));
      return row?.value ?? { watermark: 0, at: null };
    },

    /**
     * Brings `item_plays` to windows ending at `now`; call inside the rebuild's transaction.
     * Writers keep inserting `play_events` only. The SHARE lock waits for inserts in flight and
     * holds new ones back until commit, so no event with an id below the new watermark can
     * become visible later (identity ids are taken before commit, not in commit order).
     */
    async advance(tx: Tx, now: Date, windows: readonly TallyWindow[], upTo?: number): Promise<{ events: number }> {
      // `upTo`: an id every event up to which is known committed (see `committedTop`): no lock.
      if (upTo === undefined) await tx.execute(sql`lock table ${playEvents} in share mode`);
      const prev = await this.state(tx);
      const watermark = upTo ?? (await topId(tx));
      if (watermark < prev.watermark) return { events: 0 };
      const end = now.getTime();
      const fresh = sql.join(
        windows.map((w) => sql`${inRange(end - w.lengthMs, end)}`),
        sql`, `,
      );
      const parts: SQL[] = [
        sql`select ${playEvents.itemId} as item_id, ${fresh}
              from ${playEvents} where ${playEvents.id} > ${prev.watermark} and ${playEvents.id} <= ${watermark}`,
      ];
      if (prev.at !== null) {
        const before = new Date(prev.at).getTime();
        const moved = (w: TallyWindow) => sql`${inRange(end - w.lengthMs, end)} - ${inRange(before - w.lengthMs, before)}`;
        // Edges that moved: each window's start, and the common end.
        const edges = [...windows.map((w) => [before - w.lengthMs, end - w.lengthMs]), [before, end]]
          .filter(([a, b]) => a !== b)
          .map(([a, b]) => between(Math.min(a, b), Math.max(a, b)));
        if (edges.length > 0) {
          parts.push(sql`select ${playEvents.itemId}, ${sql.join(windows.map(moved), sql`, `)}
                from ${playEvents} where ${playEvents.id} <= ${prev.watermark} and (${sql.join(edges, sql` or `)})`);
        }
      }
      const cols = windows.map((w) => sql.identifier(w.column));
      const sums = windows.map((_, i) => sql`sum(${sql.identifier(`c${i}`)})::int as ${sql.identifier(`c${i}`)}`);
      const names = sql.join(windows.map((_, i) => sql.identifier(`c${i}`)), sql`, `);
      // Raw: data-modifying CTEs over a union of event ranges, which the builder cannot write.
      const result = {
        n: sql<number>`(select coalesce(sum(events), 0)::int from per_item)`,
        emptied: sql<number[]>`coalesce((select json_agg(item_id) from up where quarter = 0), '[]'::json)`,
      };
      const [{ n, emptied }] = await selectRows(tx, result, (fields) =>
        sql`with d(item_id, ${names}) as (${sql.join(parts, sql` union all `)}),
            per_item as (
              select d.item_id, i.source_site, i.kind, ${sql.join(sums, sql`, `)}, count(*)::int as events
                from d join items i on i.id = d.item_id
               group by d.item_id, i.source_site, i.kind
            ), up as (
              insert into ${itemPlays} (item_id, site, kind, ${sql.join(cols, sql`, `)})
              select item_id, source_site, kind, ${names} from per_item
              on conflict (item_id) do update set site = excluded.site, kind = excluded.kind,
                ${sql.join(cols.map((c) => sql`${c} = ${itemPlays}.${c} + excluded.${c}`), sql`, `)}
              returning item_id, quarter
            )
            select ${fields}`,
      );
      // An item out of every window (quarter is the widest) needs no row.
      if (emptied.length > 0) {
        await tx.execute(
          sql`delete from ${itemPlays} where item_id in (select value::int from json_array_elements_text(${JSON.stringify(emptied)}::json))`,
        );
      }
      const value: TallyState = { watermark, at: now.toISOString() };
      await tx
        .insert(appSettings)
        .values({ key: TALLY_KEY, value })
        .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
      return { events: n };
    },
  };
}
