import { sourceAdminMessages, type SourceAdminAnswer, type SourcePatch, type SourceTryAnswer } from "@contracts/source-admin";
import { zodIssuesInChinese } from "@contracts/zod-issues";
import type { AppDatabase } from "../../db/types.js";
import { AppError, badRequest, notFound } from "../../errors.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import { genericSourceConfig } from "./adapters/generic-config.js";
import type { LiveSourceDirectory } from "./directory.js";
import { configProblems, type SourceNetwork } from "./generic-source.js";
import { BUILTIN_SOURCES, DEFAULT_SOURCE_TIMEOUT_MS } from "./registry.js";
import { sourceSiteRepo, type SourceSiteRow } from "./site-repo.js";
import { SourceError } from "./types.js";

/** How long a try waits when the source names no timeout of its own. */
const TRY_TIMEOUT_MS = 10_000;

/** Our own catalogue's row (本站): a site, never a source adapter. */
const LOCAL_CODE = "local";
const BUILTIN_CODES = new Set([...BUILTIN_SOURCES.map((s) => s.code), LOCAL_CODE]);

export interface SourceAdminOptions {
  writes: Pick<CatalogueWriteService, "transaction">;
  audit: AuditService;
  directory: Pick<LiveSourceDirectory, "list" | "get" | "settled" | "defaultTimeoutMs">;
  /** Tests only: fixture addresses a stored config may name. */
  network?: SourceNetwork;
}

/**
 * The back office's sources (ADR 0026): list them, store a generic source's configuration, switch
 * and rename any source, delete a generic one. Every write goes through the write service (its
 * `sources` event rebuilds the directory of every instance) with its audit row in the same
 * transaction; the answer waits for this instance's rebuild, so the next search already uses
 * the change.
 */
export function sourceAdminService(db: AppDatabase, { writes, audit, directory, network }: SourceAdminOptions) {
  const repo = sourceSiteRepo(db);

  /** A code adapter: the three sites, 本站, or one handed to the app at start (tests' fixtures). */
  const isBuiltin = (code: string, row?: SourceSiteRow) =>
    BUILTIN_CODES.has(code) || (row?.adapterConfig == null && directory.list().some((e) => e.code === code));

  /** The source's default timeout: its adapter's when built here, else its config's or the built-in one. */
  function defaultTimeout(row: SourceSiteRow, adapter: SourceAdminAnswer["adapter"]): number | null {
    if (adapter === "none") return null;
    const configured = row.adapterConfig?.timeoutMs;
    return directory.defaultTimeoutMs(row.code) ?? (typeof configured === "number" ? configured : DEFAULT_SOURCE_TIMEOUT_MS);
  }

  function view(row: SourceSiteRow): SourceAdminAnswer {
    const adapter = row.adapterConfig ? "generic" : row.plugin ? "plugin" : isBuiltin(row.code, row) && row.code !== LOCAL_CODE ? "builtin" : "none";
    const defaultTimeoutMs = defaultTimeout(row, adapter);
    return {
      code: row.code,
      name: row.name,
      logo: row.logo,
      homepage: row.homepage,
      enabled: row.enabled,
      sort: row.sort,
      adapter,
      plugin: row.plugin,
      collectIntervalMinutes: row.collectIntervalMinutes,
      timeoutMs: defaultTimeoutMs === null ? null : (row.timeoutMs ?? defaultTimeoutMs),
      timeoutDefault: row.timeoutMs === null,
      defaultTimeoutMs,
      inUse: directory.get(row.code) !== undefined,
      config: row.adapterConfig,
    };
  }

  async function found(code: string): Promise<SourceSiteRow> {
    const row = await repo.get(code);
    if (!row) throw notFound(sourceAdminMessages.notFound);
    return row;
  }

  return {
    /**
     * One search against the source in use, first page, straight to its adapter: no cache, no
     * circuit breaker, so an admin sees what the site answers now (or why it fails).
     */
    async tryIt(code: string, keyword: string): Promise<SourceTryAnswer> {
      const entry = directory.get(code);
      if (!entry) throw badRequest(sourceAdminMessages.notInUse);
      const started = Date.now();
      const signal = AbortSignal.timeout(entry.timeoutMs ?? TRY_TIMEOUT_MS);
      try {
        const page = await entry.adapter.search({ keyword, page: 1, type: "mp3" }, signal);
        return {
          code,
          ms: Date.now() - started,
          ok: true,
          hasMore: page.hasMore,
          total: page.total ?? null,
          items: page.items.map((i) => ({ sourceId: i.sourceId, title: i.title, artist: i.artist, url: i.url, cover: i.cover, duration: i.duration, kind: i.kind, raw: i.raw })),
          error: null,
        };
      } catch (err) {
        const error =
          err instanceof SourceError
            ? { kind: err.kind, message: err.message, status: err.status ?? null }
            : { kind: signal.aborted ? "timeout" : "error", message: err instanceof Error ? err.message : String(err), status: null };
        return { code, ms: Date.now() - started, ok: false, hasMore: false, total: null, items: [], error };
      }
    },

    async list(): Promise<SourceAdminAnswer[]> {
      const rows = await repo.list();
      const known = new Set(rows.map((r) => r.code));
      // A source in use without a row (handed over at start): shown with what it says of itself.
      const unlisted = directory.list().filter((e) => !known.has(e.code));
      return [
        ...rows.map(view),
        ...unlisted.map((e): SourceAdminAnswer => ({
          code: e.code,
          name: e.name,
          logo: e.logo ?? null,
          homepage: e.homepage,
          enabled: true,
          sort: 0,
          adapter: "builtin",
          plugin: null,
          collectIntervalMinutes: 0,
          timeoutMs: e.timeoutMs ?? DEFAULT_SOURCE_TIMEOUT_MS,
          timeoutDefault: true,
          defaultTimeoutMs: e.timeoutMs ?? DEFAULT_SOURCE_TIMEOUT_MS,
          inUse: true,
          config: null,
        })),
      ];
    },

    /** Creates or replaces a generic source's configuration; a bad one changes nothing. */
    async putConfig(actor: AuditActor, code: string, body: Record<string, unknown>): Promise<{ created: boolean; source: SourceAdminAnswer }> {
      if (body.code !== undefined && body.code !== code) throw badRequest(sourceAdminMessages.codeMismatch);
      const parsed = genericSourceConfig.safeParse({ ...body, code });
      if (!parsed.success) throw badRequest(`${sourceAdminMessages.invalidConfig}${zodIssuesInChinese(parsed.error)}`);
      const problems = configProblems(parsed.data, network);
      if (problems.length > 0) throw badRequest(`${sourceAdminMessages.invalidConfig}${problems.join("；")}`);
      const adapterConfig = parsed.data as unknown as Record<string, unknown>;
      const created = await writes.transaction(async (w, tx) => {
        const r = sourceSiteRepo(tx as unknown as AppDatabase);
        const row = await r.get(code);
        // A plugin's own source keeps no adapter of its own while the plugin is off: still not a generic one's to take.
        if (row?.plugin) throw badRequest(sourceAdminMessages.pluginConfig);
        if (isBuiltin(code, row)) throw badRequest(sourceAdminMessages.builtinConfig);
        if (row) await w.updateSourceSite(code, { adapterConfig });
        else await w.upsertSourceSite({ code, name: parsed.data.name, homepage: parsed.data.baseUrl, adapterConfig, sort: await r.nextSort() });
        const after = view((await r.get(code))!);
        await audit.record(actor, { action: row ? "source.update" : "source.create", targetType: "source", targetId: code, before: row ? view(row) : null, after }, tx as unknown as AppDatabase);
        return !row;
      });
      await directory.settled();
      return { created, source: view(await found(code)) };
    },

    async patch(actor: AuditActor, code: string, patch: SourcePatch): Promise<SourceAdminAnswer> {
      await writes.transaction(async (w, tx) => {
        const r = sourceSiteRepo(tx as unknown as AppDatabase);
        const before = await r.get(code);
        if (!before) throw notFound(sourceAdminMessages.notFound);
        await w.updateSourceSite(code, patch);
        const after = view((await r.get(code))!);
        await audit.record(actor, { action: "source.update", targetType: "source", targetId: code, before: view(before), after, detail: { patch } }, tx as unknown as AppDatabase);
      });
      await directory.settled();
      return view(await found(code));
    },

    /**
     * 批量启用/停用: every source named or none (an unknown code: 404, nothing changed), in one
     * transaction with an audit row per source that changes, and one rebuild of the directory.
     */
    async switchMany(actor: AuditActor, codes: string[], enabled: boolean): Promise<SourceAdminAnswer[]> {
      const unique = [...new Set(codes)];
      await writes.transaction(async (w, tx) => {
        const r = sourceSiteRepo(tx as unknown as AppDatabase);
        for (const code of unique) {
          const before = await r.get(code);
          if (!before) throw notFound(unique.length > 1 ? sourceAdminMessages.missingSome : sourceAdminMessages.notFound);
          // Already as asked: no write, no audit row saying nothing changed.
          if (before.enabled === enabled) continue;
          await w.updateSourceSite(code, { enabled });
          const after = view((await r.get(code))!);
          await audit.record(actor, { action: "source.update", targetType: "source", targetId: code, before: view(before), after, detail: { patch: { enabled } } }, tx as unknown as AppDatabase);
        }
      });
      await directory.settled();
      return Promise.all(unique.map(async (code) => view(await found(code))));
    },

    /** Deletes a generic source; built-ins are switched off instead, and a site our items name stays. */
    async remove(actor: AuditActor, code: string): Promise<void> {
      try {
        await writes.transaction(async (w, tx) => {
          const r = sourceSiteRepo(tx as unknown as AppDatabase);
          const row = await r.get(code);
          if (!row) throw notFound(sourceAdminMessages.notFound);
          if (!row.adapterConfig) throw badRequest(sourceAdminMessages.builtinDelete);
          if ((await r.itemCount(code)) > 0) throw badRequest(sourceAdminMessages.hasItems);
          await w.deleteSourceSite(code);
          await audit.record(actor, { action: "source.delete", targetType: "source", targetId: code, before: view(row), after: null }, tx as unknown as AppDatabase);
        });
      } catch (err) {
        // An item naming it arrived meanwhile (items.source_site references the site).
        if ((err as { code?: string; cause?: { code?: string } }).code === "23503" || (err as { cause?: { code?: string } }).cause?.code === "23503") {
          throw new AppError(400, sourceAdminMessages.hasItems);
        }
        throw err;
      }
      await directory.settled();
    },
  };
}

export type SourceAdminService = ReturnType<typeof sourceAdminService>;
