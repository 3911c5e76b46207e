import { recordedMessages as messages, type Extraction, type ReplayAnswer } from "@contracts/recorded";
import type { AppDatabase } from "../../../db/types.js";
import type { RecordedCall } from "../../../db/schema/index.js";
import { badRequest, notFound } from "../../../errors.js";
import { pluginRepo, type PluginVersionRow, type PluginWithVersion } from "../../plugins/repo.js";
import type { PluginRuntime, RawCall } from "../../plugins/runtime.js";
import { PluginCallError } from "../../plugins/sandbox/host.js";
import { isBuiltinReader, readRecorded } from "./builtin-readers.js";
import { replayNetwork } from "./replay-network.js";
import type { RecordedRow } from "./repo.js";
import { viewOf, type RecordedService } from "./service.js";

/**
 * Replays (issue 22, ADR 0051): a source's recorded answers read again, by the built-in parser
 * or through two versions of a plugin side by side (the one in use and the one about to be),
 * with the plugin's network answered from the recordings and never from the internet.
 */

const TITLES_SHOWN = 5;
const CALL_MS = 10_000;
/** Query parameters that carry a search's keyword on the sites we know (SOURCES.md) and in plugins. */
const KEYWORD_PARAMS = ["keywords", "keyword", "musicname", "key", "keys", "query", "q", "kw", "wd", "word", "s", "searchKey"];

/** The call an answer was recorded for; an answer kept without one was a search, its keyword in the URL. */
export function callOf(row: Pick<RecordedRow, "url" | "call">): RecordedCall {
  if (row.call) return row.call;
  let keyword = "";
  let page = 1;
  try {
    const params = new URL(row.url).searchParams;
    keyword = KEYWORD_PARAMS.map((k) => params.get(k)).find((v) => v) ?? [...params.values()].find((v) => v && !/^\d+$/u.test(v)) ?? "";
    page = Number(params.get("page") ?? params.get("p") ?? 1) || 1;
  } catch {
    // Not a URL: a search with no keyword, which the plugin reports.
  }
  return { method: "search", args: [keyword, page, "music"] };
}

/** Titles of what a plugin method returned: search pages, top-list pages, a media source. */
export function summarise(version: string, value: unknown): Extraction {
  const ok = (titles: string[]) => ({ version, count: titles.length, titles: titles.slice(0, TITLES_SHOWN), error: null });
  const titleOf = (item: unknown) => (item && typeof item === "object" && "title" in item ? String((item as { title: unknown }).title) : String(item));
  if (value && typeof value === "object") {
    const v = value as Record<string, unknown>;
    for (const key of ["data", "musicList"]) if (Array.isArray(v[key])) return ok((v[key] as unknown[]).map(titleOf));
    if (typeof v.url === "string") return ok([v.url]);
    if (Array.isArray(value)) return ok(value.flatMap((g) => (g && typeof g === "object" && Array.isArray((g as { data?: unknown }).data) ? ((g as { data: unknown[] }).data.map(titleOf)) : [titleOf(g)])));
  }
  return { version, count: 0, titles: [], error: "插件返回的内容无法识别" };
}

const errorText = (err: unknown) => (err instanceof PluginCallError ? `${err.kind}: ${err.message}` : err instanceof Error ? err.message : String(err)).slice(0, 500);

export function replayService(db: AppDatabase, { recorded, runtime }: { recorded: Pick<RecordedService, "bodies">; runtime: Pick<PluginRuntime, "withTrial"> }) {
  const plugins = pluginRepo(db);

  async function versionOf(platform: string, id: number): Promise<PluginVersionRow> {
    const found = await plugins.version(id);
    if (!found || found.platform !== platform) throw notFound(messages.versionNotFound);
    return found;
  }

  /** Every answer through one version: one sandbox instance, each recorded call in turn. */
  async function through(plugin: PluginWithVersion, version: PluginVersionRow, rows: RecordedRow[]): Promise<Extraction[]> {
    const network = replayNetwork(rows);
    try {
      return await runtime.withTrial(
        plugin,
        async (_entry, call: RawCall) => {
          const out: Extraction[] = [];
          for (const row of rows) {
            const { method, args } = callOf(row);
            try {
              out.push(summarise(version.version, await call(method, args, AbortSignal.timeout(CALL_MS))));
            } catch (err) {
              out.push({ version: version.version, count: 0, titles: [], error: errorText(err) });
            }
          }
          return out;
        },
        { code: version.code, answer: (request) => network.answer(request) },
      );
    } catch (err) {
      // The version does not even load: every answer says so.
      return rows.map(() => ({ version: version.version, count: 0, titles: [], error: `加载失败: ${errorText(err)}` }));
    }
  }

  async function replayPlugin(platform: string, versionId?: number): Promise<ReplayAnswer> {
    const plugin = await plugins.get(platform);
    if (!plugin) throw notFound(messages.notPlugin);
    // A version named: it beside the one in use. None: the one in use beside the one before it.
    const next = versionId !== undefined ? await versionOf(platform, versionId) : plugin.current;
    const old = versionId !== undefined ? plugin.current : plugin.previous;
    const rows = await recorded.bodies(plugin.sourceCode);
    if (!rows.length) throw badRequest(messages.noneToReplay);
    const [before, after] = await Promise.all([old && old.id !== next.id ? through(plugin, old, rows) : Promise.resolve(null), through(plugin, next, rows)]);
    return { source: plugin.sourceCode, rows: rows.map((row, i) => ({ answer: viewOf(row), old: before?.[i] ?? null, new: after[i]! })) };
  }

  return {
    replayPlugin,

    /** A source's answers through what serves it: the plugin that does, else the built-in parser. */
    async replaySource(source: string): Promise<ReplayAnswer> {
      const plugin = await plugins.bySource(source);
      if (plugin) return replayPlugin(plugin.platform);
      if (!isBuiltinReader(source)) throw notFound(messages.notPlugin);
      const rows = await recorded.bodies(source);
      if (!rows.length) throw badRequest(messages.noneToReplay);
      return { source, rows: rows.map((row) => { const read = readRecorded(source, row); return { answer: viewOf(row), old: null, new: { version: read.version, count: read.count, titles: read.titles, error: read.error } }; }) };
    },
  };
}

export type ReplayService = ReturnType<typeof replayService>;
