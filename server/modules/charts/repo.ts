import { sql, type SQL } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import type { ChartPeriod, ItemKind, PlayType } from "../../db/schema/index.js";
import { chartEntries, items, playEvents } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";

/** Key of the transaction-level advisory lock that lets one instance at a time rebuild ("charts"). */
export const CHART_LOCK_KEY = 0x63686172_7473;

/** One rolling window: plays with `since < played_at <= now` count. */
export interface ChartWindow {
  period: ChartPeriod;
  since: Date;
  /** Kinds that have a chart for this period (singles have no day chart). */
  kinds: readonly ItemKind[];
}

export interface RebuildInput {
  now: Date;
  windows: readonly ChartWindow[];
  /** Entries kept per (site, kind, period). */
  top: number;
}

export type RebuildOutcome = { status: "rebuilt"; rows: number } | { status: "locked" };

export interface ChartRow {
  site: string;
  kind: ItemKind;
  period: ChartPeriod;
  rank: number;
  plays: number;
  id: number;
  title: string;
  artist: string;
  cover: string | null;
  playtype: PlayType;
  computedAt: Date | string;
}

/** SQL of the charts: one aggregation rebuilds every chart; readers only read `chart_entries`. */
export function chartsRepo(db: AppDatabase) {
  const entries = (where: SQL) =>
    queryRows<ChartRow>(
      db,
      sql`select ce.site, ce.kind, ce.period, ce.rank::int as rank, ce.plays, ce.computed_at as "computedAt",
                 i.id, i.title, i.artist, i.cover, i.playtype
            from ${chartEntries} ce
            join ${items} i on i.id = ce.item_id and i.status = 'normal'
           where ${where}
           order by ce.site, ce.kind, ce.period, ce.rank`,
    );

  return {
    /**
     * Replaces every chart in one transaction (readers see the old charts until it commits).
     * Takes a transaction-level advisory lock first: if another instance holds it, nothing is
     * done and `locked` is answered. One scan of the widest window counts all windows at once
     * with FILTER; row_number() ranks each (site, kind, period) by plays desc, then item id asc,
     * over the few candidates that can reach the top (see `floors`).
     */
    async rebuild({ now, windows, top }: RebuildInput): Promise<RebuildOutcome> {
      if (windows.length === 0) throw new Error("chartsRepo.rebuild: no windows");
      const widest = windows.reduce((a, w) => (w.since < a.since ? w : a));
      const counts = sql.join(
        windows.map((w, i) => sql`count(*) filter (where ${playEvents.playedAt} > ${w.since.toISOString()}::timestamptz)::int as ${sql.identifier(`c${i}`)}`),
        sql`, `,
      );
      const perWindow = sql.join(
        windows.map((w, i) => sql`(${w.period}::text, a.${sql.identifier(`c${i}`)}, ${`{${w.kinds.join(",")}}`}::text[])`),
        sql`, `,
      );
      return db.transaction(async (tx) => {
        const [lock] = await queryRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${CHART_LOCK_KEY}::bigint) as locked`);
        if (!lock.locked) return { status: "locked" } as const;
        // Room to hash and sort in memory; JIT compiling costs more than it saves here.
        await tx.execute(sql`set local work_mem = '64MB'`);
        await tx.execute(sql`set local jit = off`);
        await tx.delete(chartEntries);
        const inserted = await queryRows<{ n: number }>(
          tx,
          sql`with a as materialized (
                select i.source_site as site, i.kind, c.*
                  from (select ${playEvents.itemId} as item_id, ${counts}
                          from ${playEvents}
                         where ${playEvents.playedAt} > ${widest.since.toISOString()}::timestamptz
                           and ${playEvents.playedAt} <= ${now.toISOString()}::timestamptz
                         group by ${playEvents.itemId}) c
                  join ${items} i on i.id = c.item_id and i.status = 'normal'
              ), u as materialized (
                select a.site, a.kind, w.period, a.item_id, w.plays
                  from a cross join lateral (values ${perWindow}) as w(period, plays, kinds)
                 where w.plays > 0 and a.kind = any(w.kinds)
              ), floors as (
                -- Per chart, the lowest play count that can still reach the top: ranking then sorts
                -- only those candidates, not every (item, window) row (a full sort took seconds).
                select site, kind, period, min(plays) as floor
                  from (select h.*, sum(n) over (partition by site, kind, period order by plays desc) - n as above
                          from (select site, kind, period, plays, count(*) as n
                                  from u group by site, kind, period, plays) h) x
                 where above < ${top}
                 group by site, kind, period
              ), ranked as (
                select u.*, row_number() over (partition by u.site, u.kind, u.period
                                               order by u.plays desc, u.item_id) as rn
                  from u join floors f
                    on f.site = u.site and f.kind = u.kind and f.period = u.period and u.plays >= f.floor
              ), ins as (
                insert into ${chartEntries} (site, kind, period, rank, item_id, plays, computed_at)
                select site, kind, period, rn, item_id, plays, ${now.toISOString()}::timestamptz
                  from ranked where rn <= ${top}
                returning 1
              )
              select count(*)::int as n from ins`,
        );
        return { status: "rebuilt", rows: inserted[0].n } as const;
      });
    },

    /** The first `limit` entries of every chart of the given sites, with their (visible) items. */
    topEntries(sites: readonly string[], limit: number): Promise<ChartRow[]> {
      return entries(sql`ce.site in (select json_array_elements_text(${JSON.stringify(sites)}::json)) and ce.rank <= ${limit}`);
    },

    /** One chart (site, kind, period), first `limit` entries. */
    chart(site: string, kind: ItemKind, period: ChartPeriod, limit: number): Promise<ChartRow[]> {
      return entries(sql`ce.site = ${site} and ce.kind = ${kind} and ce.period = ${period} and ce.rank <= ${limit}`);
    },

    /** When the charts were last rebuilt, or null if never. */
    async lastComputedAt(): Promise<Date | null> {
      const [row] = await queryRows<{ at: Date | string | null }>(db, sql`select max(computed_at) as at from ${chartEntries}`);
      return row?.at ? new Date(row.at) : null;
    },
  };
}
