import { z } from "zod";
import { classifyKind, cleanTitle, parseDuration, splitArtist } from "../sources/normalise.js";
import { SourceError, type ChartPeriod, type ItemKind, type ResolvedMedia, type SearchInput, type SourceAdapter, type SourceItem, type SourceItemDetails, type SourcePage } from "../sources/types.js";
import { PluginCallError } from "./sandbox/host.js";
import { Cache, jsonBytes } from "../../lib/cache.js";

/**
 * A MusicFree plugin as one of our sources (issue 21): the same `SourceAdapter` the built-in
 * sites implement, over calls into the sandbox. What the plugin exports decides what the source
 * can do (its capabilities); what it answers is checked and read leniently, as the MusicFree app
 * does, and every failure becomes a SourceError that names the plugin's source.
 */

export interface PluginCapabilities {
  search: boolean;
  play: boolean;
  details: boolean;
  topLists: boolean;
}

export function capabilitiesOf(exports: Record<string, unknown>): PluginCapabilities {
  const has = (name: string) => exports[name] === "[function]";
  const types = Array.isArray(exports.supportedSearchType) ? exports.supportedSearchType : ["music"];
  return {
    search: has("search") && types.includes("music"),
    play: has("getMediaSource"),
    details: has("getMusicInfo"),
    topLists: has("getTopLists") && has("getTopListDetail"),
  };
}

/** What the adapter needs of the sandbox: one plugin's calls. */
export interface PluginCaller {
  call(method: string, args: unknown[], signal?: AbortSignal): Promise<unknown>;
}

const id = z.union([z.string(), z.number()]).transform(String);
const musicItem = z.looseObject({
  id,
  title: z.string().optional().default(""),
  artist: z.union([z.string(), z.number()]).optional().nullable(),
  album: z.string().optional().nullable(),
  artwork: z.string().optional().nullable(),
  duration: z.union([z.number(), z.string()]).optional().nullable(),
});
type MusicItem = z.infer<typeof musicItem>;
const pageOf = (key: "data" | "musicList") => z.looseObject({ isEnd: z.boolean().optional(), [key]: z.array(z.unknown()).optional().default([]) });
const mediaSource = z.looseObject({ url: z.string().min(1), headers: z.record(z.string(), z.union([z.string(), z.number()])).optional().nullable(), userAgent: z.string().optional().nullable() });
const topListGroups = z.array(z.looseObject({ title: z.string().optional().default(""), data: z.array(z.looseObject({ id, title: z.string().optional().default("") })).optional().default([]) }));

/** Keys of a plugin's top lists in collect units and `listCategory`: `toplist:{id}`. */
export const TOPLIST_PREFIX = "toplist:";
const ITEMS_KEPT = 5_000;
/** Pages of one top list per collection job. */
const COLLECT_PAGES = 3;
const TOPLISTS_KEPT_MS = 10 * 60_000;
const PERIOD_WORDS: Record<ChartPeriod, RegExp> = { day: /日榜|今日|每日|24小时/u, week: /周榜|本周|一周|每周|7天/u, month: /月榜|本月|每月|30天/u, quarter: /季榜|季度/u };
const KIND_WORDS: Record<ItemKind, RegExp> = { mix: /串烧|套曲|连版|mix/iu, single: /单曲|舞曲|歌曲|dj舞曲/iu };

/**
 * The top list standing for one of our charts: its title names the period (周榜…) and the kind
 * (串烧 / 单曲); a period's list that names no kind stands for both.
 */
function chartList<T extends { title: string }>(lists: readonly T[], period: ChartPeriod, kind: ItemKind): T | undefined {
  const byPeriod = lists.filter((l) => PERIOD_WORDS[period].test(l.title));
  return byPeriod.find((l) => KIND_WORDS[kind].test(l.title)) ?? byPeriod.find((l) => !KIND_WORDS.mix.test(l.title) && !KIND_WORDS.single.test(l.title));
}

export interface PluginAdapterOptions {
  code: string;
  name: string;
  homepage: string;
  caller: PluginCaller;
  capabilities: PluginCapabilities;
}

export function pluginAdapter({ code, name, homepage, caller, capabilities }: PluginAdapterOptions): SourceAdapter & { capabilities: PluginCapabilities } {
  // Items as the plugin wrote them, handed back to getMediaSource (MusicFree keeps extra fields).
  const items = new Map<string, MusicItem>();
  // The plugin's top lists, read again after TOPLISTS_KEPT_MS. The primitive, but not in the app's
  // registry: it lives and goes with this adapter (one per plugin version). Loads are not shared:
  // each runs under its caller's abort signal.
  const topLists = new Cache<z.infer<typeof topListGroups>[number]["data"]>({
    name: `top-lists:${code}`,
    maxEntries: 1,
    maxBytes: 1024 * 1024,
    sizeOf: jsonBytes,
    freshMs: TOPLISTS_KEPT_MS,
  });

  function remember(item: MusicItem): void {
    items.delete(item.id);
    items.set(item.id, item);
    if (items.size > ITEMS_KEPT) items.delete(items.keys().next().value!);
  }

  async function call(method: string, args: unknown[], signal?: AbortSignal): Promise<unknown> {
    try {
      return await caller.call(method, args, signal);
    } catch (err) {
      if (err instanceof SourceError) throw err;
      if (!(err instanceof PluginCallError)) throw new SourceError(code, signal?.aborted ? "timeout" : "plugin", err instanceof Error ? err.message : String(err));
      if (err.kind === "timeout") throw new SourceError(code, "timeout", err.message);
      if (err.kind === "busy") throw new SourceError(code, "busy", err.message);
      const status = /status code (\d{3})/u.exec(err.message)?.[1];
      if (status === "403" || status === "429") throw new SourceError(code, "blocked", err.message, Number(status));
      if (status === "404") throw new SourceError(code, "not_found", err.message, 404);
      if (status) throw new SourceError(code, "http", err.message, Number(status));
      if (/ERR_FORBIDDEN_ADDRESS|non-public address|SSRF/u.test(err.message)) throw new SourceError(code, "forbidden_address", err.message);
      if (/ECONNABORTED|ERR_NETWORK|ENOTFOUND|ECONNREFUSED|timed out|no complete answer/u.test(err.message)) throw new SourceError(code, "network", err.message);
      throw new SourceError(code, "plugin", `${err.kind}: ${err.message}`);
    }
  }

  function toItem(raw: unknown, position?: number): SourceItem | null {
    const parsed = musicItem.safeParse(raw);
    if (!parsed.success || !parsed.data.title) return null;
    const item = parsed.data;
    remember(item);
    const split = item.artist ? { artist: String(item.artist), title: cleanTitle(item.title) } : splitArtist(item.title);
    const duration = parseDuration(item.duration ?? null);
    const page = [item.weburl, item.webUrl, item.link, item.pageUrl].find((v): v is string => typeof v === "string" && /^https?:\/\//u.test(v));
    return {
      source: code,
      sourceId: item.id,
      // No page of its own: the site's home with the id, one address per item (collection keys on it).
      url: page ?? `${homepage.replace(/\/+$/u, "")}/#${encodeURIComponent(item.id)}`,
      title: split.title,
      artist: split.artist || null,
      cover: typeof item.artwork === "string" && /^https?:\/\//u.test(item.artwork) ? item.artwork : null,
      duration,
      sizeBytes: null,
      kind: classifyKind({ title: item.title, duration }),
      playtype: "mp3",
      ...(position !== undefined ? { position } : {}),
      raw: item,
    };
  }

  function pageFrom(answer: unknown, key: "data" | "musicList", firstPosition = 1): SourcePage {
    const parsed = pageOf(key).safeParse(answer);
    if (!parsed.success) throw new SourceError(code, "layout", `plugin answered no ${key} list`);
    const list = parsed.data[key] as unknown[];
    const mapped = list.map((raw, i) => toItem(raw, firstPosition + i)).filter((i): i is SourceItem => i !== null);
    return { items: mapped, hasMore: parsed.data.isEnd === false || (parsed.data.isEnd === undefined && mapped.length > 0) };
  }

  async function allTopLists(signal?: AbortSignal) {
    const kept = topLists.has("") ? topLists.peek("") : undefined;
    if (kept) return kept;
    const parsed = topListGroups.safeParse(await call("getTopLists", [], signal));
    if (!parsed.success) throw new SourceError(code, "layout", "plugin's top lists are unreadable");
    const lists = parsed.data.flatMap((group) => group.data.map((list) => ({ ...list, title: list.title || group.title })));
    topLists.set("", lists);
    return lists;
  }

  async function topListPage(listId: string, page: number, signal?: AbortSignal): Promise<SourcePage> {
    const list = (await allTopLists(signal)).find((l) => l.id === listId) ?? { id: listId, title: "" };
    return pageFrom(await call("getTopListDetail", [list, page], signal), "musicList");
  }

  const unsupported = (what: string) => new SourceError(code, "not_found", `${name} has no ${what}`);

  return {
    code,
    name,
    capabilities,
    servesQuery: (input: SearchInput) => capabilities.search && input.type === "mp3",
    async search(input, signal) {
      if (!capabilities.search || input.type !== "mp3") return { items: [], hasMore: false };
      return pageFrom(await call("search", [input.keyword, input.page, "music"], signal), "data");
    },
    async listCategory(category, page, signal) {
      if (!capabilities.topLists || !category.startsWith(TOPLIST_PREFIX)) throw unsupported(`category ${category}`);
      return topListPage(category.slice(TOPLIST_PREFIX.length), page, signal);
    },
    async listChart(chart, signal) {
      if (!capabilities.topLists) return { items: [], hasMore: false };
      const match = chartList(await allTopLists(signal), chart.period, chart.kind);
      if (!match) return { items: [], hasMore: false };
      return topListPage(match.id, 1, signal);
    },
    async details(sourceId, signal): Promise<SourceItemDetails> {
      const known = items.get(sourceId) ?? { id: sourceId, title: "" };
      const extra = capabilities.details ? await call("getMusicInfo", [known], signal) : null;
      const item = toItem({ ...known, ...(extra && typeof extra === "object" ? extra : {}) });
      if (!item) throw new SourceError(code, "not_found", `${name} knows no item ${sourceId}`);
      return { ...item, tracklist: [] };
    },
    async collectPlan(signal) {
      if (!capabilities.topLists) return [];
      const lists = await allTopLists(signal);
      // The spec's charts where a top list's title names the period (周榜…), then every top list.
      const charts = (["day", "week", "month", "quarter"] as const).flatMap((period) =>
        (["mix", "single"] as const).filter((kind) => chartList(lists, period, kind)).map((kind) => ({ type: "chart" as const, period, kind, maxPages: 1 })),
      );
      return [...charts, ...lists.map((l) => ({ type: "category" as const, key: `${TOPLIST_PREFIX}${l.id}`, name: l.title || l.id, maxPages: COLLECT_PAGES }))];
    },
    async resolveMedia(sourceId, signal): Promise<ResolvedMedia> {
      if (!capabilities.play) throw unsupported("playable addresses");
      const item = items.get(sourceId) ?? { id: sourceId, platform: name };
      const parsed = mediaSource.safeParse(await call("getMediaSource", [item, "standard"], signal));
      if (!parsed.success) throw new SourceError(code, "not_found", `${name} gave no playable address for ${sourceId}`);
      const { url, headers, userAgent } = parsed.data;
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new SourceError(code, "layout", `${name} gave an address that is not a URL`);
      }
      const sent: Record<string, string> = {};
      for (const [key, value] of Object.entries(headers ?? {})) sent[key.toLowerCase()] = String(value);
      if (userAgent) sent["user-agent"] = userAgent;
      const path = target.pathname.toLowerCase();
      const format = path.endsWith(".m3u8") ? "hls" : path.endsWith(".mp3") ? "mp3" : path.endsWith(".mp4") ? "mp4" : "m4a";
      return { url: target.toString(), headers: sent, format };
    },
  };
}
