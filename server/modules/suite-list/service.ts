import type { AdminTableQuery } from "@contracts/admin-table";
import { SUITE_BIN_DAYS, SUITE_MODEL_ID, SUITE_STATUS_TEXT, type SuiteListRow, suiteListMessages as m } from "@contracts/suite-list-texts";
import { suitePath } from "@contracts/paths";
import type { AppDatabase } from "../../db/types.js";
import { notFound } from "../../errors.js";
import type { AuditAction } from "@contracts/audit-labels";
import { type AuditActor, type AuditService, SITE_ACTOR } from "../audit/service.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import { suiteListRepo, type SuiteTableRecord } from "./repo.js";
import { i, suiteTable } from "./table.js";
import { sql } from "drizzle-orm";
import type { TableSource } from "../../http/admin-table.js";
import type { CacheRegistry } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";

/** Counting a keyword's matches stops here (the answer then says `capped: true`). */
export const SEARCH_COUNT_CAP = 500;
type SuiteTableQuery = AdminTableQuery & { model_id?: number; trash?: "0" | "1" };
/** The table shows either the suites in use or those in the recycle bin (`trash=1`). */
const binned = (q: SuiteTableQuery) => [q.trash === "1" ? sql`${i.deletedAt} is not null` : sql`${i.deletedAt} is null`];
/** Suites purged from the recycle bin in one transaction. */
const PURGE_BATCH = 100;

/** Unix seconds → `Y-m-d H:i:s` in China time (UTC+8, no daylight saving). */
export function chinaDateTime(seconds: number): string {
  return new Date((seconds + 8 * 3600) * 1000).toISOString().slice(0, 19).replace("T", " ");
}

function toRow(r: SuiteTableRecord): SuiteListRow {
  return {
    id: r.id,
    channel_id: r.category_id,
    model_id: r.kind === "mix" ? 2 : 1,
    title: r.title,
    image: r.cover ?? "",
    diyname: "",
    price: r.price,
    views: r.views,
    comments: r.comments,
    weigh: 0,
    createtime: r.createtime,
    updatetime: r.updatetime,
    publishtime: r.publishtime,
    status: r.status,
    status_text: SUITE_STATUS_TEXT[r.status],
    publishtime_text: chinaDateTime(r.publishtime),
    deletetime: r.deletetime,
    deletetime_text: r.deletetime === null ? "" : chinaDateTime(r.deletetime),
    url: suitePath(r.id),
    channel: r.channel_name === null ? null : { name: r.channel_name, diyname: r.channel_diyname ?? "" },
  };
}

/**
 * The back office's suites (issue 12, ADR 0028): the table, deletes and enable/disable. Every
 * change goes through the write service (the public site drops the suite at once) and writes
 * one audit row per suite in the same transaction; an unknown id refuses the whole call.
 */
export function suiteListService(
  db: AppDatabase,
  deps: { writes: CatalogueWriteService; audit: AuditService; caches: CacheRegistry; searchCountCap?: number },
) {
  const repo = suiteListRepo(db);
  const { writes, audit } = deps;
  const cap = deps.searchCountCap ?? SEARCH_COUNT_CAP;
  // Totals of the unsearched table by kind and filter (counting 100,000 suites costs ~10 ms a
  // request); dropped by any change of items or categories, and kept a minute at most, for
  // writers outside this process's bus.
  const counts = deps.caches.create<number>({
    name: "adminSuiteCounts",
    maxEntries: 500,
    maxBytes: 256 * 1024,
    sizeOf: () => 8,
    freshMs: 60_000,
    tagsOf: () => [tags.items, tags.nav],
  });

  type Writer = Parameters<Parameters<CatalogueWriteService["transaction"]>[0]>[0];
  /**
   * Moves the suites of `ids` into, out of or from the recycle bin, all or none: each must be
   * `wanted` (in the bin or not) or the call is a 404 and nothing changes. One audit row each.
   */
  async function inBin(
    actor: AuditActor | typeof SITE_ACTOR,
    ids: readonly number[],
    batch: boolean,
    { wanted, action, move }: { wanted: "in" | "out"; action: AuditAction; move: (w: Writer, ids: number[]) => Promise<number[]> },
  ): Promise<number[]> {
    const unique = [...new Set(ids)];
    return writes.transaction(async (w, tx) => {
      const before = (await repo.snapshots(unique, tx)).filter((s) => (s.deletedAt !== null) === (wanted === "in"));
      if (before.length !== unique.length) throw notFound(unique.length > 1 ? m.missingSome : wanted === "in" ? m.notInBin : m.missing);
      const moved = await move(w, unique);
      if (moved.length !== unique.length) throw notFound(m.missingSome); // changed meanwhile: roll back
      const after = action === "suite.purge" ? [] : await repo.snapshots(unique, tx);
      for (const record of before) {
        const detail = batch ? { batch: unique } : undefined;
        await audit.record(actor, { action, targetType: "suite", targetId: record.id, before: record, after: after.find((a) => a.id === record.id) ?? null, detail }, tx);
      }
      return moved.sort((a, b) => a - b);
    });
  }

  /** Deletes suites of the recycle bin for good (all or none; only suites in the bin). */
  const purge = (actor: AuditActor | typeof SITE_ACTOR, ids: readonly number[]) =>
    inBin(actor, ids, ids.length > 1, { wanted: "in", action: "suite.purge", move: (w, unique) => w.deleteItems(unique) });

  return {
    /**
     * A page and its total. Without a keyword the total is exact and kept until an item or
     * category changes; with one, counting stops past SEARCH_COUNT_CAP (`capped: true`).
     */
    async table(q: SuiteTableQuery): Promise<{ total: number; rows: SuiteListRow[]; capped?: true }> {
      const kind = (q.model_id ?? SUITE_MODEL_ID) === SUITE_MODEL_ID ? "mix" : "single";
      const descending = (q.order ?? "desc").toLowerCase() !== "asc";
      const parts = suiteTable(q, binned(q));
      if (!q.search?.trim()) {
        const key = JSON.stringify([kind, q.trash ?? "0", q.filter ?? "", q.op ?? ""]);
        const [rows, total] = await Promise.all([repo.page(kind, parts, descending), counts.get(key, () => repo.count(kind, parts.where))]);
        return { total, rows: rows.map(toRow) };
      }
      const [rows, found] = await Promise.all([repo.page(kind, parts, descending), repo.countUpTo(kind, parts.where, cap)]);
      return found > cap ? { total: cap, rows: rows.map(toRow), capped: true } : { total: found, rows: rows.map(toRow) };
    },

    /** Every match of the table's query, page by page (the CSV export). */
    source(q: SuiteTableQuery): TableSource<SuiteListRow> {
      const kind = (q.model_id ?? SUITE_MODEL_ID) === SUITE_MODEL_ID ? "mix" : "single";
      const descending = (q.order ?? "desc").toLowerCase() !== "asc";
      return { query: suiteTable(q, binned(q)), page: async (p) => (await repo.page(kind, p, descending)).map(toRow) };
    },

    channels: () => repo.channels(),

    /**
     * Moves the suites of `ids` to the recycle bin (all or none: an unknown id, or one already in
     * the bin, is a 404 and nothing changes). They leave the public site at once.
     */
    async delete(actor: AuditActor, ids: readonly number[], batch: boolean): Promise<number[]> {
      return inBin(actor, ids, batch, { wanted: "out", action: "suite.delete", move: (w, unique) => w.trashItems(unique) });
    },

    /** Back from the recycle bin with the status each had (all or none). */
    async restore(actor: AuditActor, ids: readonly number[]): Promise<number[]> {
      return inBin(actor, ids, ids.length > 1, { wanted: "in", action: "suite.restore", move: (w, unique) => w.restoreItems(unique) });
    },

    /** Deletes suites of the recycle bin for good (all or none; only suites in the bin). */
    purge,

    /** Purges what has been in the recycle bin longer than SUITE_BIN_DAYS (the leader's daily sweep); answers how many. */
    async purgeExpired(now = new Date()): Promise<number> {
      const cutoff = new Date(now.getTime() - SUITE_BIN_DAYS * 86_400_000);
      let purged = 0;
      for (;;) {
        const ids = await repo.binnedBefore(cutoff, PURGE_BATCH);
        if (ids.length === 0) return purged;
        purged += (await purge(SITE_ACTOR, ids)).length;
        if (ids.length < PURGE_BATCH) return purged;
      }
    },

    /** 正常 / 禁用: shows or hides the suites of `ids` (all or none, like delete). */
    async setStatus(actor: AuditActor, ids: readonly number[], status: "normal" | "hidden"): Promise<number[]> {
      const unique = [...new Set(ids)];
      return writes.transaction(async (w, tx) => {
        const before = (await repo.snapshots(unique, tx)).filter((s) => s.deletedAt === null);
        if (before.length !== unique.length) throw notFound(unique.length === 1 ? m.missing : m.missingSome);
        const changed = await w.setItemsStatus(unique, status);
        for (const record of before) {
          if (record.status === status) continue; // nothing changed for this one
          await audit.record(actor, { action: "suite.status", targetType: "suite", targetId: record.id, before: record, after: { ...record, status } }, tx);
        }
        return changed.sort((a, b) => a - b);
      });
    },
  };
}

export type SuiteListService = ReturnType<typeof suiteListService>;
