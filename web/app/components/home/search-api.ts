// Type-only: erased from the bundle, so no zod reaches the browser.
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
