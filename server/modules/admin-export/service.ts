import { EXPORT_TABLES, type ExportTable } from "@contracts/admin-export";
import type { AdminTableQuery } from "@contracts/admin-table";
import type { AuditAction } from "@contracts/audit-labels";
import type { CollectedIndexQuery } from "@contracts/collected";
import { everyRow, type TableSource } from "../../http/admin-table.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import { chinaDateTime } from "../suite-list/service.js";
import { EXPORT_COLUMNS, type ExportRowTypes } from "./columns.js";
import { attachment, CSV_BOM, csvLine } from "./csv.js";

/** Rows read from the database at a time, and bytes of CSV gathered before they are sent. */
const PAGE_ROWS = 1000;
const CHUNK_BYTES = 64 * 1024;

const ACTIONS: { [T in ExportTable]: { action: AuditAction; targetType: string } } = {
  suites: { action: "suite.export", targetType: "suite" },
  users: { action: "user.export", targetType: "user" },
  collected: { action: "collected.export", targetType: "collected" },
  audit: { action: "audit.export", targetType: "audit" },
};

/** The list query each export takes (its table's list API's). */
export interface ExportQueries {
  suites: AdminTableQuery & { model_id?: number };
  users: AdminTableQuery;
  collected: CollectedIndexQuery;
  audit: AdminTableQuery;
}

export type ExportSources = { [T in ExportTable]: (query: ExportQueries[T]) => TableSource<ExportRowTypes[T]> };

export interface CsvDownload {
  /** `Content-Disposition`: the Chinese file name (RFC 5987) and an ASCII one. */
  disposition: string;
  /** The file: a byte-order mark and the header line, then the rows, a chunk at a time as they are read. */
  body: AsyncIterable<string>;
}

/**
 * CSV exports of the back office's tables (ADR 0065): the table's own query (its filters and
 * sort, read by the table's definition, so a bad one is the list's 400), every match walked page
 * by page after the last row (memory stays one page), each export an audit row.
 */
export function adminExportService(deps: {
  audit: AuditService;
  sources: ExportSources;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function* lines<T extends ExportTable>(table: T, source: TableSource<ExportRowTypes[T]>): AsyncGenerator<string> {
    const columns = EXPORT_COLUMNS[table];
    let chunk = CSV_BOM + csvLine(columns.map((c) => c.header));
    for await (const row of everyRow(source, PAGE_ROWS)) {
      chunk += csvLine(columns.map((c) => c.cell(row)));
      if (chunk.length >= CHUNK_BYTES) {
        yield chunk;
        chunk = "";
      }
    }
    if (chunk) yield chunk;
  }

  return {
    /**
     * The export of `table` for `query` (the list API's query): throws the list's 400 for a query
     * it cannot read, before anything is sent; records the export (who, which table, which query).
     */
    async csv<T extends ExportTable>(actor: AuditActor, table: T, query: ExportQueries[T]): Promise<CsvDownload> {
      const source = (deps.sources[table] as (q: ExportQueries[T]) => TableSource<ExportRowTypes[T]>)(query);
      const { action, targetType } = ACTIONS[table];
      await deps.audit.record(actor, { action, targetType, detail: { query } });
      const day = chinaDateTime(Math.floor(now().getTime() / 1000)).slice(0, 10);
      const { name, file } = EXPORT_TABLES[table];
      return { disposition: attachment(`${name}-${day}.csv`, `${file}-${day}.csv`), body: lines(table, source) };
    },
  };
}

export type AdminExportService = ReturnType<typeof adminExportService>;
