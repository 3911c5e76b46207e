import { and, asc, eq, lte, max, sql, type SQL } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import type { ChartPeriod, ItemKind } from "../../db/schema/index.js";
import { chartEntries, itemPlays, items } from "../../db/schema/index.js";
import { type RowOf, selectRows } from "../../db/sql.js";
import { tallyRepo } from "./tally-repo.js";

type Tx = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

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

/**
 * More new events than this since the last rebuild (the first one counts every event: minutes
 * at 10,000,000) are counted before the rebuild, without the table lock that holds back play
 * reports while a rebuild runs.
 */
export const TALLY_BACKLOG_EVENTS = 200_000;

export type RebuildOutcome = { status: "rebuilt"; rows: number } | { status: "locked" };

const ce = chartEntries;
const ENTRY = {
  site: ce.site,
  kind: ce.kind,
  period: ce.period,
  rank: sql<number>`${ce.rank}::int`,
  plays: ce.plays,
  computedAt: ce.computedAt,
  id: items.id,
  title: items.title,
  artist: items.artist,
  cover: items.cover,
  playtype: items.playtype,
};
export type ChartRow = RowOf<typeof ENTRY>;

/** SQL of the charts: one aggregation rebuilds every chart; readers only read `chart_entries`. */
export function chartsRepo(db: AppDatabase, { backlogEvents = TALLY_BACKLOG_EVENTS }: { backlogEvents?: number } = {}) {
  const tally = tallyRepo();
  const visibleItem = and(eq(items.id, ce.itemId), eq(items.status, "normal"));
  const entries = (where: SQL | undefined): Promise<ChartRow[]> =>
    db
      .select(ENTRY)
      .from(ce)
      .innerJoin(items, visibleItem)
      .where(where)
      .orderBy(asc(ce.site), asc(ce.kind), asc(ce.period), asc(ce.rank));

  return {
    /**
     * Replaces every chart in one transaction (readers see the old charts until it commits).
     * Takes a transaction-level advisory lock first: if another instance holds it, nothing is
     * done and `locked` is answered. The running counts (`item_plays`) are moved to `now`
     * first (only changed events are read, see tally-repo.ts); each chart is then the head of
     * one index range: plays desc, then item id asc.
     */
    async rebuild({ now, windows, top }: RebuildInput): Promise<RebuildOutcome> {
      if (windows.length === 0) throw new Error("chartsRepo.rebuild: no windows");
      const charts = sql.join(
        windows.map((w) => {
          const col = sql.identifier(w.period);
          return sql`select s.code as site, k.kind, ${w.period}::text as period, t.item_id, t.plays
                       from source_sites s cross join unnest(${`{${w.kinds.join(",")}}`}::text[]) as k(kind)
                       cross join lateral (
                         select p.item_id, p.${col} as plays
                           from ${itemPlays} p
                           join ${items} i on i.id = p.item_id and i.status = 'normal'
                                          and i.source_site = p.site and i.kind = p.kind
                          where p.site = s.code and p.kind = k.kind and p.${col} > 0
                          order by p.${col} desc nulls last, p.item_id
                          limit ${top}) t`;
        }),
        sql` union all `,
      );
      const tallyWindows = windows.map((w) => ({ column: w.period, lengthMs: now.getTime() - w.since.getTime() }));
      const locked = async (tx: Tx) => {
        const [lock] = await selectRows(tx, { locked: sql<boolean>`pg_try_advisory_xact_lock(${CHART_LOCK_KEY}::bigint)` }, (fields) => sql`select ${fields}`);
        if (lock.locked) await tx.execute(sql`set local jit = off`);
        return lock.locked;
      };
      if ((await tally.top(db)) - (await tally.state(db)).watermark > backlogEvents) {
        const upTo = await tally.committedTop(db);
        const counted = await db.transaction(async (tx) => (await locked(tx)) && (await tally.advance(tx, now, tallyWindows, upTo), true));
        if (!counted) return { status: "locked" };
      }
      return db.transaction(async (tx) => {
        if (!(await locked(tx))) return { status: "locked" } as const;
        await tally.advance(tx, now, tallyWindows);
        await tx.delete(chartEntries);
        // Raw: a window function feeding an insert in a data-modifying CTE.
        const inserted = await selectRows(tx, { n: sql<number>`count(*)::int` }, (fields) =>
          sql`with c as (${charts}), ins as (
                insert into ${chartEntries} (site, kind, period, rank, item_id, plays, computed_at)
                select site, kind, period,
                       row_number() over (partition by site, kind, period order by plays desc, item_id),
                       item_id, plays, ${now.toISOString()}::timestamptz
                  from c
                returning 1
              )
              select ${fields} from ins`,
        );
        return { status: "rebuilt", rows: inserted[0]!.n } as const;
      });
    },

    /** The first `limit` entries of every chart of the given sites, with their (visible) items. */
    topEntries(sites: readonly string[], limit: number): Promise<ChartRow[]> {
      return entries(sql`${ce.site} in (select json_array_elements_text(${JSON.stringify(sites)}::json)) and ${ce.rank} <= ${limit}`);
    },

    /**
     * Visible items of every chart, the best ranked first (every chart's first, then every
     * chart's second, …; more plays, then the lower id, among equal ranks), each once.
     */
    async mostPlayedIds(limit: number): Promise<number[]> {
      const rows = await db
        .select({ id: ce.itemId })
        .from(ce)
        .innerJoin(items, visibleItem)
        .groupBy(ce.itemId)
        .orderBy(sql`min(${ce.rank})`, sql`max(${ce.plays}) desc`, ce.itemId)
        .limit(limit);
      return rows.map((r) => Number(r.id));
    },

    /** One chart (site, kind, period), first `limit` entries. */
    chart(site: string, kind: ItemKind, period: ChartPeriod, limit: number): Promise<ChartRow[]> {
      return entries(and(eq(ce.site, site), eq(ce.kind, kind), eq(ce.period, period), lte(ce.rank, limit)));
    },

    /** When the charts were last rebuilt, or null if never. */
    async lastComputedAt(): Promise<Date | null> {
      const [row] = await db.select({ at: max(ce.computedAt) }).from(ce);
      return row?.at ? new Date(row.at) : null;
    },
  };
}
