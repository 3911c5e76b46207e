import type { AdminTableQuery } from "@contracts/admin-table";
import { SUITE_MODEL_ID, SUITE_STATUS_TEXT, type SuiteListRow, suiteListMessages as m } from "@contracts/suite-list-texts";
import { suitePath } from "@contracts/paths";
import type { AppDatabase } from "../../db/types.js";
import { notFound } from "../../errors.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import { suiteListRepo, type SuiteTableRecord } from "./repo.js";
import { suiteTable } from "./table.js";
import type { TableSource } from "../../http/admin-table.js";
import type { CacheRegistry } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";

/** Counting a keyword's matches stops here (the answer then says `capped: true`). */
export const SEARCH_COUNT_CAP = 500;
type SuiteTableQuery = AdminTableQuery & { model_id?: number };

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

  return {
    /**
     * A page and its total. Without a keyword the total is exact and kept until an item or
     * category changes; with one, counting stops past SEARCH_COUNT_CAP (`capped: true`).
     */
    async table(q: SuiteTableQuery): Promise<{ total: number; rows: SuiteListRow[]; capped?: true }> {
      const kind = (q.model_id ?? SUITE_MODEL_ID) === SUITE_MODEL_ID ? "mix" : "single";
      const descending = (q.order ?? "desc").toLowerCase() !== "asc";
      const parts = suiteTable(q);
      if (!q.search?.trim()) {
        const key = JSON.stringify([kind, q.filter ?? "", q.op ?? ""]);
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
      return { query: suiteTable(q), page: async (p) => (await repo.page(kind, p, descending)).map(toRow) };
    },

    channels: () => repo.channels(),

    /** Deletes the suites of `ids` (all or none: an unknown id is a 404 and nothing changes). */
    async delete(actor: AuditActor, ids: readonly number[], batch: boolean): Promise<number[]> {
      const unique = [...new Set(ids)];
      return writes.transaction(async (w, tx) => {
        const before = await repo.snapshots(unique, tx);
        if (before.length !== unique.length) throw notFound(unique.length === 1 ? m.missing : m.missingSome);
        const deleted = await w.deleteItems(unique);
        if (deleted.length !== unique.length) throw notFound(m.missingSome); // deleted meanwhile: roll back
        for (const record of before) {
          await audit.record(
            actor,
            { action: "suite.delete", targetType: "suite", targetId: record.id, before: record, after: null, detail: batch ? { batch: unique } : undefined },
            tx,
          );
        }
        return deleted.sort((a, b) => a - b);
      });
    },

    /** 正常 / 禁用: shows or hides the suites of `ids` (all or none, like delete). */
    async setStatus(actor: AuditActor, ids: readonly number[], status: "normal" | "hidden"): Promise<number[]> {
      const unique = [...new Set(ids)];
      return writes.transaction(async (w, tx) => {
        const before = await repo.snapshots(unique, tx);
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
