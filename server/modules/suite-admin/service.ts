import type { AdminTableQuery } from "@contracts/admin-table";
import { SUITE_MODEL_ID, SUITE_STATUS_TEXT, type SuiteAdminRow, suiteAdminMessages as m } from "@contracts/suite-admin-texts";
import { suitePath } from "@contracts/paths";
import type { AppDatabase } from "../../db/types.js";
import { notFound } from "../../errors.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import { suiteAdminRepo, type SuiteTableRecord } from "./repo.js";
import { suiteTable } from "./table.js";

/** Unix seconds → `Y-m-d H:i:s` in China time (UTC+8, no daylight saving). */
export function chinaDateTime(seconds: number): string {
  return new Date((seconds + 8 * 3600) * 1000).toISOString().slice(0, 19).replace("T", " ");
}

function toRow(r: SuiteTableRecord): SuiteAdminRow {
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
export function suiteAdminService(db: AppDatabase, deps: { writes: CatalogueWriteService; audit: AuditService }) {
  const repo = suiteAdminRepo(db);
  const { writes, audit } = deps;

  return {
    async table(q: AdminTableQuery & { model_id?: number }): Promise<{ total: number; rows: SuiteAdminRow[] }> {
      const kind = (q.model_id ?? SUITE_MODEL_ID) === SUITE_MODEL_ID ? "mix" : "single";
      const parts = suiteTable(q);
      const { total, rows } = await repo.table(kind, parts, (q.order ?? "desc").toLowerCase() !== "asc");
      return { total, rows: rows.map(toRow) };
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

export type SuiteAdminService = ReturnType<typeof suiteAdminService>;
