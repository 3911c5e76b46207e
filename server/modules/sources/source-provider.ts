import type { CatalogueItem } from "@contracts/catalogue-item";
import { ProviderSkipped, ProviderUnavailable, type ProviderQuery, type ProviderResult, type SearchProvider } from "../search/provider.js";
import type { AnswerListener } from "./fetch/answer-tap.js";
import type { CallFailure, SourceHealth } from "./health.js";
import { SourceError, type MediaStreamer, type SearchInput, type SourceAdapter, type SourceItem } from "./types.js";

/** One external source in use: a built-in from the registry (`registry.ts`) or a generic one from `source_sites`, as the directory (`directory.ts`) has it now. */
export interface SourceAdapterEntry {
  code: string;
  /** Shown name (DJUU, 172Mix, 清风DJ): each hit's `website`. */
  name: string;
  homepage: string;
  /** Address of the site's logo: each hit's `websitelogo` ("" when none). */
  logo?: string;
  /** How long a search waits for this source (default 3 s); the directory's entries carry the effective one. */
  timeoutMs?: number;
  /** Sets the source fetcher's own per-request timeout (the directory calls it with the effective one). */
  setTimeoutMs?(ms: number): void;
  /** "hls" when the site plays only HLS playlists: hits tell the player so (its route's address cannot). */
  playFormat?: "hls";
  adapter: SourceAdapter;
  /** Listens to the answers this source's fetcher gets until the returned function is called (the canary, ADR 0049). */
  tapAnswers?(listener: AnswerListener): () => void;
  /** Streams resolved media that needs headers (the play route); without it such media cannot play. */
  media?: MediaStreamer;
}

export const HLS_MIME_TYPE = "application/vnd.apple.mpegurl";

export const SOURCE_SEARCH_TIMEOUT_MS = 3_000;

/**
 * Where the player asks our server for an external item's playable address. The route resolves
 * it through the adapter at play time (tokens expire) and streams or redirects (the media
 * resolve route of issue 11, built after this file).
 */
export const SOURCE_PLAY_PATH = "/api/forntend/source-play";
export const sourcePlayUrl = (source: string, sourceId: string) =>
  `${SOURCE_PLAY_PATH}?source=${encodeURIComponent(source)}&id=${encodeURIComponent(sourceId)}`;

/**
 * An external hit as every list shows it. `id` is `{source}:{sourceId}` (a text id: unique in a
 * merged list, never one of our numbers); `url` and `weburl` are the item's page on its site (we
 * search, downloads happen at the source); `palyurl` is our resolve route.
 */
export function toCatalogueItem(item: SourceItem, entry: Pick<SourceAdapterEntry, "code" | "name" | "logo" | "playFormat">): CatalogueItem {
  return {
    id: `${entry.code}:${item.sourceId}`,
    name: item.title,
    artist: item.artist ?? "",
    cover: item.cover ?? "",
    palyurl: sourcePlayUrl(entry.code, item.sourceId),
    ...(entry.playFormat === "hls" ? { mimeType: HLS_MIME_TYPE } : {}),
    playtype: item.playtype,
    kind: item.kind,
    channel: entry.code,
    website: entry.name,
    websitelogo: entry.logo ?? "",
    category: "",
    cidurl: "",
    time: 0,
    weburl: item.url,
    url: item.url,
    vipdown: "0",
    price: 0,
    view_count: 0,
    source: entry.code,
  };
}

function describeFailure(err: unknown, aborted: boolean): CallFailure {
  if (err instanceof SourceError) return { kind: err.kind, message: err.message };
  if (aborted) return { kind: "timeout", message: "search timed out" };
  return { kind: "unknown", message: err instanceof Error ? err.message : String(err) };
}

/** Settles with the promise, or rejects as soon as the signal aborts (an adapter may be slow to notice). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * A search provider over one source adapter, guarded by the source's health: while its breaker
 * is open the provider answers at once with ProviderUnavailable; every call it lets through is
 * recorded (a timeout, i.e. the service aborting it, counts as a failure). A query the adapter
 * declares it cannot serve (`servesQuery` false) is not sent at all: ProviderSkipped, before
 * the breaker is asked, and nothing is recorded (it is not the site failing).
 *
 * Paging: our page n is the site's page n, as many items as the site lists on a page (sites do
 * not take a page size); `total` is the site's when it states one, else a lower bound (`capped`)
 * from the pages seen, plus one when the site shows a next page.
 */
export function sourceProvider(entry: SourceAdapterEntry, health: SourceHealth): SearchProvider {
  const { adapter, code } = entry;
  return {
    code,
    name: entry.name,
    timeoutMs: entry.timeoutMs ?? SOURCE_SEARCH_TIMEOUT_MS,
    serves: (channel) => channel === undefined || channel === code,
    async search(q: ProviderQuery, signal: AbortSignal): Promise<ProviderResult> {
      const input: SearchInput = { keyword: q.keyword, page: q.page, type: q.type, kind: q.kind };
      if (adapter.servesQuery?.(input) === false) throw new ProviderSkipped(code);
      if (!health.admit()) throw new ProviderUnavailable(code);
      const started = performance.now();
      try {
        const page = await untilAborted(adapter.search(input, signal), signal);
        health.succeeded(performance.now() - started);
        // The site's kind filter is not guaranteed (some sites have none): keep what was asked for.
        const items = page.items.filter((i) => i.playtype === q.type && (q.kind === undefined || i.kind === q.kind));
        // Pages before this one were at least as long as this one: a lower bound without the site's total.
        const seen = q.page * page.items.length;
        return {
          list: items.map((i) => toCatalogueItem(i, entry)),
          durations: items.map((i) => i.duration),
          total: page.total ?? seen + (page.hasMore ? 1 : 0),
          capped: page.total === undefined && (page.hasMore || q.page > 1),
        };
      } catch (err) {
        if (err instanceof SourceError && err.kind === "busy") health.notAsked();
        else health.failed(performance.now() - started, describeFailure(err, signal.aborted));
        throw err;
      }
    },
  };
}
