import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { selectRows } from "../../db/sql.js";
import { collectedItems, collectJobPages, collectJobs, sourceChartEntries, sourceSites, type CollectTrigger, type CollectUnit } from "../../db/schema/index.js";
import type { SourceItem } from "../sources/types.js";
import { chartKey } from "./plans.js";

/**
 * The collector's SQL (ADR 0023). A job is held by one runner through a lease (`locked_by`,
 * `locked_until`); every page is stored in ONE transaction that first re-checks the lease and
 * the cursor under a row lock (fencing), then stores the items, the chart, the page log row and
 * the moved cursor. A runner that lost its job cannot store anything: its transaction rolls back.
 */

export type CollectJob = typeof collectJobs.$inferSelect;
export type CollectJobPage = typeof collectJobPages.$inferSelect;

export const OPEN_STATES = ["queued", "running"] as const;

/** Thrown inside a page's transaction when the job is no longer ours (it rolls everything back). */
export class LostLease extends Error {
  constructor(readonly jobId: number) {
    super(`collect job ${jobId}: lease lost`);
    this.name = "LostLease";
  }
}

/** What one page of a unit gave: its items, whether the site shows a next page, or why it failed. */
export interface PageOutcome {
  items: SourceItem[];
  hasMore: boolean;
  error?: string;
}

export interface StoredPage {
  state: CollectJob["state"];
  unitIndex: number;
  nextPage: number;
  items: number;
  newItems: number;
}

const leaseEnd = (leaseMs: number) => sql`now() + (${Math.round(leaseMs)}::int * interval '1 millisecond')`;

/** One item per source address (a page may list an item twice: the upsert may touch a row once). */
function distinctByUrl(items: SourceItem[]): SourceItem[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(item.url) ? false : (seen.add(item.url), true)));
}

export function collectRepo(db: AppDatabase) {
  async function getJob(id: number): Promise<CollectJob | undefined> {
    const [job] = await db.select().from(collectJobs).where(eq(collectJobs.id, id));
    return job;
  }

  async function openJob(source: string): Promise<CollectJob | undefined> {
    const [job] = await db
      .select()
      .from(collectJobs)
      .where(and(eq(collectJobs.source, source), inArray(collectJobs.state, [...OPEN_STATES])));
    return job;
  }

  /** Upserts the items (never touching `status` or `item_id`): each row's id and whether it is new. */
  async function upsertItems(tx: AppDatabase, items: SourceItem[], unit: CollectUnit) {
    if (items.length === 0) return [];
    const category = unit.type === "category" ? unit : undefined;
    const kindOf = (item: SourceItem) => (unit.type === "chart" ? unit.kind : (category?.kind ?? item.kind));
    const kept = (column: AnyPgColumn) => sql`coalesce(excluded.${sql.identifier(column.name)}, ${column})`;
    return tx
      .insert(collectedItems)
      .values(
        items.map((item) => ({
          source: item.source,
          sourceUrl: item.url,
          sourceId: item.sourceId,
          title: item.title,
          artist: item.artist,
          cover: item.cover,
          kind: kindOf(item),
          playtype: item.playtype,
          durationSec: item.duration === null ? null : Math.round(item.duration),
          sizeBytes: item.sizeBytes === null ? null : Math.round(item.sizeBytes),
          raw: item.raw,
          sourceCategory: category?.key ?? null,
          sourceCategoryName: category?.name ?? null,
          lastSeenAt: sql`now()`,
        })),
      )
      .onConflictDoUpdate({
        target: [collectedItems.source, collectedItems.sourceUrl],
        // What a list does not say (a chart has no category, a category page no duration) is kept.
        set: {
          title: sql`excluded.title`,
          sourceId: kept(collectedItems.sourceId),
          artist: kept(collectedItems.artist),
          cover: kept(collectedItems.cover),
          kind: kept(collectedItems.kind),
          playtype: sql`excluded.playtype`,
          durationSec: kept(collectedItems.durationSec),
          sizeBytes: kept(collectedItems.sizeBytes),
          raw: sql`coalesce(collected_items.raw, '{}'::jsonb) || coalesce(excluded.raw, '{}'::jsonb)`,
          sourceCategory: kept(collectedItems.sourceCategory),
          sourceCategoryName: kept(collectedItems.sourceCategoryName),
          lastSeenAt: sql`now()`,
          updatedAt: sql`now()`,
        },
      })
      .returning({ id: collectedItems.id, url: collectedItems.sourceUrl, inserted: sql<boolean>`(xmax = 0)` });
  }

  /** Replaces one chart of a site: its ranked rows and its key in the items' `chart_positions`. */
  async function replaceChart(tx: AppDatabase, source: string, unit: Extract<CollectUnit, { type: "chart" }>, ranked: { id: number; rank: number }[]) {
    const key = chartKey(unit);
    await tx
      .delete(sourceChartEntries)
      .where(and(eq(sourceChartEntries.site, source), eq(sourceChartEntries.kind, unit.kind), eq(sourceChartEntries.period, unit.period)));
    await tx.execute(
      sql`update collected_items set chart_positions = chart_positions - ${key}::text, updated_at = now()
          where source = ${source} and chart_positions ? ${key}::text`,
    );
    if (ranked.length === 0) return;
    await tx.insert(sourceChartEntries).values(ranked.map(({ id, rank }) => ({ site: source, kind: unit.kind, period: unit.period, rank, collectedItemId: id })));
    const rows = sql.join(
      ranked.map(({ id, rank }) => sql`(${id}::int, ${rank}::int)`),
      sql`, `,
    );
    await tx.execute(
      sql`update collected_items c set chart_positions = c.chart_positions || jsonb_build_object(${key}::text, v.rank), updated_at = now()
          from (values ${rows}) as v(id, rank) where c.id = v.id`,
    );
  }

  return {
    getJob,
    openJob,

    /**
     * Queues a job unless the source has one queued or running (then answers that one): the
     * partial unique index makes this idempotent across instances.
     */
    async queue(input: { source: string; trigger: CollectTrigger; plan: CollectUnit[]; requestedBy?: number | null }): Promise<{ job: CollectJob; created: boolean }> {
      for (let attempt = 0; attempt < 3; attempt++) {
        const [created] = await db
          .insert(collectJobs)
          .values({ source: input.source, trigger: input.trigger, plan: input.plan, requestedBy: input.requestedBy ?? null })
          .onConflictDoNothing({ target: collectJobs.source, where: sql`state in ('queued', 'running')` })
          .returning();
        if (created) return { job: created, created: true };
        const open = await openJob(input.source);
        if (open) return { job: open, created: false };
        // The open job finished between the two statements: try again.
      }
      throw new Error(`collect job for ${input.source}: could not queue`);
    },

    /** Queues a scheduled job when the source's last job was created `intervalMinutes` ago or more (or never). */
    async queueIfDue(source: string, intervalMinutes: number, plan: CollectUnit[]): Promise<CollectJob | undefined> {
      // Raw: an insert of a select guarded by `not exists`, onto a partial unique index.
      const rows = await selectRows(db, { id: collectJobs.id }, (fields) => sql`
        insert into collect_jobs (source, trigger, plan)
        select ${source}, 'schedule', ${JSON.stringify(plan)}::jsonb
        where not exists (
          select 1 from collect_jobs
          where source = ${source} and created_at > now() - (${intervalMinutes}::int * interval '1 minute'))
        on conflict (source) where state in ('queued', 'running') do nothing
        returning ${fields}`);
      const id = rows[0]?.id;
      return id === undefined ? undefined : getJob(Number(id));
    },

    /**
     * Takes the oldest queued job of one of `sources` (those this instance can reach), or a
     * running one whose lease ran out (its runner died): attempts + 1.
     */
    async claim(runnerId: string, leaseMs: number, sources: readonly string[]): Promise<CollectJob | undefined> {
      if (sources.length === 0) return undefined;
      const codes = sql.join(
        sources.map((code) => sql`${code}`),
        sql`, `,
      );
      // Raw: the claim's subquery takes its row `for update skip locked`.
      const rows = await selectRows(db, { id: collectJobs.id }, (fields) => sql`
        update collect_jobs set state = 'running', locked_by = ${runnerId}, locked_until = ${leaseEnd(leaseMs)},
          attempts = attempts + 1, started_at = coalesce(started_at, now()), updated_at = now()
        where id = (
          select id from collect_jobs
          where source in (${codes})
            and (state = 'queued' or (state = 'running' and (locked_until is null or locked_until < now())))
          order by id limit 1 for update skip locked)
        returning ${fields}`);
      const id = rows[0]?.id;
      return id === undefined ? undefined : getJob(Number(id));
    },

    /**
     * Stores one page and moves the cursor, in one transaction, only while the job is still
     * held by `runnerId` at this very cursor; otherwise nothing is stored (LostLease).
     */
    async storePage(input: { job: Pick<CollectJob, "id" | "source" | "plan">; runnerId: string; leaseMs: number; unitIndex: number; page: number; outcome: PageOutcome }): Promise<StoredPage> {
      const { job, runnerId, unitIndex, page, outcome } = input;
      const unit = job.plan[unitIndex];
      if (!unit) throw new Error(`collect job ${job.id}: no unit ${unitIndex}`);
      return db.transaction(async (tx) => {
        const j = collectJobs;
        const held = await tx
          .select({ unitIndex: j.unitIndex, nextPage: j.nextPage })
          .from(j)
          .where(and(eq(j.id, job.id), eq(j.lockedBy, runnerId), eq(j.state, "running")))
          .for("update");
        const row = held[0];
        if (!row || row.unitIndex !== unitIndex || row.nextPage !== page) throw new LostLease(job.id);

        const items = outcome.error ? [] : distinctByUrl(outcome.items.filter((item) => item.source === job.source));
        const stored = await upsertItems(tx, items, unit);
        const newItems = stored.filter((r) => r.inserted).length;
        if (unit.type === "chart" && !outcome.error && items.length > 0) {
          const idByUrl = new Map(stored.map((r) => [r.url, r.id]));
          const positions = items.map((item) => item.position);
          const siteRanks = positions.every((p) => p !== undefined && p > 0) && new Set(positions).size === positions.length;
          await replaceChart(tx, job.source, unit, items.map((item, i) => ({ id: idByUrl.get(item.url)!, rank: siteRanks ? item.position! : i + 1 })));
        }
        await tx.insert(collectJobPages).values({ jobId: job.id, unitIndex, page, items: items.length, newItems, error: outcome.error ?? null });

        const more = !outcome.error && outcome.hasMore && page < unit.maxPages;
        const next = more ? { unitIndex, nextPage: page + 1 } : { unitIndex: unitIndex + 1, nextPage: 1 };
        const done = next.unitIndex >= job.plan.length;
        const state = done ? "done" : "running";
        await tx
          .update(collectJobs)
          .set({
            unitIndex: next.unitIndex,
            nextPage: next.nextPage,
            pagesDone: sql`${collectJobs.pagesDone} + 1`,
            itemsFound: sql`${collectJobs.itemsFound} + ${items.length}`,
            itemsNew: sql`${collectJobs.itemsNew} + ${newItems}`,
            errors: sql`${collectJobs.errors} + ${outcome.error ? 1 : 0}`,
            ...(outcome.error ? { lastError: outcome.error } : {}),
            state,
            lockedUntil: done ? null : leaseEnd(input.leaseMs),
            ...(done ? { lockedBy: null, finishedAt: sql`now()` } : {}),
            updatedAt: sql`now()`,
          })
          .where(eq(collectJobs.id, job.id));
        return { state, ...next, items: items.length, newItems };
      });
    },

    /** Ends a job we hold as failed (a dead site, a source switched off). False when it is not ours any more. */
    async fail(id: number, runnerId: string, reason: string): Promise<boolean> {
      const rows = await db
        .update(collectJobs)
        .set({ state: "failed", lastError: reason, lockedBy: null, lockedUntil: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(collectJobs.id, id), eq(collectJobs.lockedBy, runnerId), eq(collectJobs.state, "running")))
        .returning({ id: collectJobs.id });
      return rows.length > 0;
    },

    /** Gives a held job back at once (a clean stop): any runner may take it and go on from its cursor. */
    async release(id: number, runnerId: string): Promise<void> {
      await db
        .update(collectJobs)
        .set({ lockedUntil: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(collectJobs.id, id), eq(collectJobs.lockedBy, runnerId), eq(collectJobs.state, "running")));
    },

    /** Cancels a queued or running job; its runner notices at its next page and stops. */
    async cancel(id: number): Promise<CollectJob | undefined> {
      const [job] = await db
        .update(collectJobs)
        .set({ state: "cancelled", lockedBy: null, lockedUntil: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(collectJobs.id, id), inArray(collectJobs.state, [...OPEN_STATES])))
        .returning();
      return job;
    },

    async recentJobs(limit: number): Promise<CollectJob[]> {
      return db.select().from(collectJobs).orderBy(desc(collectJobs.id)).limit(limit);
    },

    async pages(jobId: number): Promise<CollectJobPage[]> {
      return db.select().from(collectJobPages).where(eq(collectJobPages.jobId, jobId)).orderBy(collectJobPages.unitIndex, collectJobPages.page);
    },

    /** Each source's row: its schedule and, for a generic source, its adapter config. */
    async sourceSettings(): Promise<{ code: string; enabled: boolean; collectIntervalMinutes: number; adapterConfig: Record<string, unknown> | null }[]> {
      return db
        .select({ code: sourceSites.code, enabled: sourceSites.enabled, collectIntervalMinutes: sourceSites.collectIntervalMinutes, adapterConfig: sourceSites.adapterConfig })
        .from(sourceSites);
    },
  };
}

export type CollectRepo = ReturnType<typeof collectRepo>;
