// Type-only: erased from the bundle, so no zod reaches the browser.
import type { CatalogueItem } from "@contracts/catalogue-item";
import type { SearchResult } from "@contracts/search";
import { SEARCH_DEFAULT_PAGE_SIZE, searchMessages } from "@contracts/search-texts";
import { apiGet } from "../../lib/api";

export interface HomeSearch {
  keyword: string;
  channel: string;
  type: "mp3" | "mp4";
  page: number;
}


/** GET /api/forntend/indexsearch; rejects with the server's msg or 搜索失败. */
export async function searchCatalogue(q: HomeSearch): Promise<SearchResult> {
  const params = new URLSearchParams({
    keyword: q.keyword,
    page: String(q.page),
    limit: String(SEARCH_DEFAULT_PAGE_SIZE),
    type: q.type,
  });
  if (q.channel) params.set("channelid", q.channel);
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
