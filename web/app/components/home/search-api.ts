// Type-only: erased from the bundle, so no zod reaches the browser.
import type { CatalogueItem } from "@contracts/catalogue-item";
import type { SearchResult, SearchStreamDone, SearchStreamSource } from "@contracts/search";
import { SEARCH_DEFAULT_PAGE_SIZE, searchMessages } from "@contracts/search-texts";
import { apiGet } from "../../lib/api";
import { eventStreamParser } from "./event-stream";

export interface HomeSearch {
  keyword: string;
  channel: string;
  type: "mp3" | "mp4";
  page: number;
}


function searchParams(q: HomeSearch): URLSearchParams {
  const params = new URLSearchParams({
    keyword: q.keyword,
    page: String(q.page),
    limit: String(SEARCH_DEFAULT_PAGE_SIZE),
    type: q.type,
  });
  if (q.channel) params.set("channelid", q.channel);
  return params;
}

/** GET /api/forntend/indexsearch; rejects with the server's msg or 搜索失败. */
export async function searchCatalogue(q: HomeSearch): Promise<SearchResult> {
  const params = searchParams(q);
  let body: Awaited<ReturnType<typeof apiGet<SearchResult>>>;
  try {
    body = await apiGet<SearchResult>(`/api/forntend/indexsearch?${params}`, null);
  } catch {
    throw new Error(searchMessages.searchFailed);
  }
  if (!body || body.code !== 1) throw new Error(body?.msg || searchMessages.searchFailed);
  return body.data;
}

/** A source site as the page knows it (the home answer's site list). */
export interface KnownSite {
  code: string;
  name: string;
  logo?: string;
}

/** Hits from our own catalogue; every other provider is an external site. */
export const isExternalHit = (item: Pick<CatalogueItem, "source">) => item.source !== "local";

/**
 * The shown name of a source code: the site list's, else a hit's `website`, else the code
 * (users know DJUU and 清风DJ, not djuu and vvvdj).
 */
export function sourceName(code: string, sites: readonly KnownSite[], hits: readonly CatalogueItem[]): string {
  return sites.find((s) => s.code === code)?.name || hits.find((h) => h.source === code && h.website)?.website || code;
}

/** A hit's site logo: its own, else the site list's ("" when none is known). */
export function siteLogo(item: Pick<CatalogueItem, "websitelogo" | "channel" | "source">, sites: readonly KnownSite[]): string {
  if (item.websitelogo) return item.websitelogo;
  const code = isExternalHit(item) ? item.source : item.channel;
  return sites.find((s) => s.code === code)?.logo ?? "";
}

/**
 * One quiet line naming the sources that failed or timed out (null when none did). Whatever
 * the server's reason (failed, timed out, skipped while it recovers), users see one wording.
 */
export function failedSourcesNotice(data: Pick<SearchResult, "errors" | "list">, sites: readonly KnownSite[]): string | null {
  const names = [...new Set(data.errors.map((e) => sourceName(e.source, sites, data.list)))];
  if (names.length === 0) return null;
  return `${names.join("、")} 暂时无法访问，${data.list.length ? "已显示其他来源的结果" : "请稍后再试"}`;
}

/** Where the browser can follow the streamed search (ADR 0050): a fetched body read as it arrives (every browser from 2022 on); elsewhere the merged answer. */
export const canStream = () => typeof ReadableStream !== "undefined" && typeof TextDecoderStream !== "undefined";

export interface StreamHandlers {
  onSource(source: SearchStreamSource): void;
  onDone(done: SearchStreamDone): void;
  /** Nothing arrived (refused before any event: bad input, too many requests, no server): ask the merged route. */
  onFallback(): void;
  /** The connection broke after some events: what arrived stays, the sources still out have failed. */
  onBroken(): void;
}

/**
 * Follows GET /api/forntend/indexsearch/stream: one `source` event per source (本站 first), then
 * `done`. Returns the close function (a new search, Escape, leaving the page). Read with fetch,
 * not EventSource: EventSource connects in a task of its own, which Chromium runs after the frame
 * the submit changed (7-18 ms after it); fetch sends at once. A search is asked once: a break
 * is reported, never reconnected.
 */
export function streamSearch(q: HomeSearch, handlers: StreamHandlers): () => void {
  const controller = new AbortController();
  let received = false;
  let finished = false;
  const close = () => {
    finished = true;
    controller.abort();
  };
  const push = eventStreamParser((event, data) => {
    if (finished) return;
    if (event === "source") {
      received = true;
      handlers.onSource(JSON.parse(data) as SearchStreamSource);
    } else if (event === "done") {
      close();
      handlers.onDone(JSON.parse(data) as SearchStreamDone);
    }
  });
  const ended = () => {
    if (finished) return;
    finished = true;
    if (received) handlers.onBroken();
    else handlers.onFallback();
  };
  fetch(`/api/forntend/indexsearch/stream?${searchParams(q)}`, { headers: { accept: "text/event-stream" }, signal: controller.signal })
    .then(async (response) => {
      if (!response.ok || !response.body) return ended();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (let chunk = await reader.read(); !chunk.done && !finished; chunk = await reader.read()) push(chunk.value);
      ended();
    })
    .catch(ended);
  return close;
}

/** A source's state on the search page while results come in. */
export type SourceStateKind = "searching" | "done" | "failed" | "skipped";
export interface SourceState {
  source: string;
  name: string;
  state: SourceStateKind;
  total: number;
  capped: boolean;
  /** Why, for a failed or skipped source (搜索超时, 源站暂时不可用…). */
  reason?: string;
}

export function stateOf(event: SearchStreamSource): SourceState {
  const state: SourceStateKind = event.skipped ? "skipped" : event.error ? "failed" : "done";
  return { source: event.source, name: event.name, state, total: event.total, capped: event.capped, ...(event.error ? { reason: event.error } : {}) };
}

/** 搜索中 / N 条结果 / 失败 / 已跳过. */
export function stateText(s: SourceState): string {
  if (s.state === "searching") return "搜索中";
  if (s.state === "failed") return "失败";
  if (s.state === "skipped") return "已跳过";
  return `${s.total}${s.capped ? "+" : ""} 条结果`;
}
