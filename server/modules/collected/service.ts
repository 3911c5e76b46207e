import { sql } from "drizzle-orm";
import { type CollectedIndexQuery, collectedMessages as m, type CollectedRow, type ProcessOutcome } from "@contracts/collected";
import type { AppDatabase, DbLogger } from "../../db/types.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import { notFound } from "../../errors.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import { BUILTIN_SOURCES } from "../sources/registry.js";
import type { SourceDirectory } from "../sources/directory.js";
import { mapCollected, sourceIdOf } from "./mapping.js";
import { collectedRepo, type CollectedTableRow } from "./repo.js";
import { collectedTable } from "./table.js";
import type { TableSource } from "../../http/admin-table.js";

const STATUS_TEXT = { 0: "未处理", 1: "已处理" } as const;

/** The table's query, with the screen's status shortcut. */
function tableQuery(query: CollectedIndexQuery) {
  const { status, ...rest } = query;
  return collectedTable(rest, status && status !== "all" ? [sql`status = ${Number(status)}`] : []);
}

function toTableRow(r: CollectedTableRow): CollectedRow {
  const status = r.status === 1 ? "1" : "0";
  return {
    id: r.id,
    title: r.title,
    source: r.source,
    createtime: r.createtime,
    status,
    status_text: STATUS_TEXT[status],
    source_url: r.source_url,
    source_id: r.source_id,
    artist: r.artist,
    cover: r.cover,
    kind: r.kind,
    playtype: r.playtype,
    source_category: r.source_category,
    source_category_name: r.source_category_name,
    duration: r.duration,
    size: r.size,
    chart_positions: r.chart_positions ?? {},
    item_id: r.item_id,
    processtime: r.processtime,
    last_seen: r.last_seen,
  };
}

/** A reason one collected row cannot become an item: reported for that id, never a 500. */
class Unprocessable extends Error {}

export interface CollectedServiceOptions {
  writes: CatalogueWriteService;
  /** The sources in use: which ones stream HLS (their items carry the hint). */
  sourceDirectory: Pick<SourceDirectory, "get">;
  logger: Pick<DbLogger, "info" | "error">;
  /** The audit trail: an admin's processing and deleting write their rows in the same transaction. */
  audit?: AuditService;
}

/**
 * Turns collected rows into catalogue items (issue 11, "Processing"; ADR 0024), each in its own
 * transaction through the write service, so search text is derived and every cache hears of it;
 * one row failing leaves the others processed.
 */
export function collectedService(db: AppDatabase, { writes, sourceDirectory, logger, audit }: CollectedServiceOptions) {
  /** A built-in source's format stands in when it is not in use here (switched off). */
  const playFormatOf = (code: string) => sourceDirectory.get(code)?.playFormat ?? BUILTIN_SOURCES.find((s) => s.code === code)?.playFormat;

  return {
    /**
     * Creates or updates the item of each collected row (pending or already processed): the item
     * of its (source, source id) when there is one, so processing twice, or two rows of the same
     * site item, end on one item. Answers per id, in the order given (repeats once).
     */
    async process(ids: readonly number[], { adminId, actor }: { adminId?: number; actor?: AuditActor } = {}): Promise<ProcessOutcome[]> {
      const repo = collectedRepo(db);
      const [sites, categories] = await Promise.all([repo.sourceCodes(), repo.categories()]);
      const outcomes: ProcessOutcome[] = [];
      for (const id of new Set(ids)) {
        try {
          const done = await writes.transaction(async (w, tx) => {
            const txRepo = collectedRepo(tx);
            const row = await txRepo.lock(id);
            if (!row) throw new Unprocessable(m.missing);
            if (!sites.has(row.source)) throw new Unprocessable(`${m.unknownSource}: ${row.source}`);
            const sourceId = sourceIdOf(row);
            if (!sourceId) throw new Unprocessable(m.noSourceId);
            const context = { sourceId, categories, playFormat: playFormatOf(row.source) };
            let existing = await txRepo.findItem(row.source, sourceId);
            let action: "created" | "updated" = "updated";
            if (!existing) {
              const mapped = mapCollected(row, context);
              // Another admin's batch may create it first: then this one updates it.
              const [created] = await w.createItems([mapped.create], { onConflictDoNothing: true });
              if (created !== undefined) {
                existing = { id: created, categoryId: mapped.create.categoryId ?? null };
                action = "created";
              } else {
                existing = await txRepo.findItem(row.source, sourceId);
                if (!existing) throw new Error(`item of ${row.source}:${sourceId} neither created nor found`);
              }
            }
            if (action === "updated") {
              await w.updateItem(existing.id, mapCollected(row, { ...context, existingCategoryId: existing.categoryId }).update);
            }
            await txRepo.markProcessed(id, existing.id);
            if (actor && audit) {
              await audit.record(
                actor,
                {
                  action: "collected.process",
                  targetType: "collected",
                  targetId: id,
                  before: { status: row.status, itemId: row.itemId },
                  after: { status: 1, itemId: existing.id },
                  detail: { itemAction: action, source: row.source, sourceId, title: row.title },
                },
                tx as unknown as AppDatabase,
              );
            }
            return { itemId: existing.id, action };
          });
          outcomes.push({ id, itemId: done.itemId, action: done.action, error: null });
        } catch (err) {
          if (!(err instanceof Unprocessable)) logger.error({ err, collectedId: id }, "processing a collected item failed");
          outcomes.push({ id, itemId: null, action: null, error: err instanceof Unprocessable ? err.message : m.failed });
        }
      }
      const processed = outcomes.filter((o) => o.error === null).length;
      logger.info({ adminId, processed, failed: outcomes.length - processed }, "collected items processed");
      return outcomes;
    },

    /** The back office's table (ADMIN-API.md conventions): `{total, rows}`. */
    async table(query: CollectedIndexQuery): Promise<{ total: number; rows: CollectedRow[] }> {
      const { total, rows } = await collectedRepo(db).table(tableQuery(query));
      return { total, rows: rows.map(toTableRow) };
    },

    /** Every match of the table's query, page by page (the CSV export). */
    source(query: CollectedIndexQuery): TableSource<CollectedRow> {
      return { query: tableQuery(query), page: async (q) => (await collectedRepo(db).page(q)).map(toTableRow) };
    },

    /**
     * Deletes collected rows; the items made from them stay. Answers the ids deleted; when none
     * of the ids exists (already deleted, or never), 404 采集数据不存在 rather than 删除成功.
     */
    async delete(ids: readonly number[], actor?: AuditActor): Promise<number[]> {
      return db.transaction(async (tx) => {
        const gone = await collectedRepo(tx).delete([...new Set(ids)]);
        if (gone.length === 0) throw notFound(m.missing);
        if (actor && audit) {
          for (const row of gone) {
            await audit.record(actor, { action: "collected.delete", targetType: "collected", targetId: row.id, before: row, after: null }, tx as unknown as AppDatabase);
          }
        }
        return gone.map((r) => r.id);
      });
    },
  };
}

export type CollectedService = ReturnType<typeof collectedService>;
