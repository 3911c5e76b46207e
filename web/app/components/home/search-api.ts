import type { CatalogueItem } from "@contracts/catalogue-item";
import { apiGet } from "../../lib/api";

/** Home search page size and limit (spec section 9). */
export const HOME_SEARCH_PAGE_SIZE = 5;
/** Spec texts; literals because importing contracts' schemas would ship zod to the browser. */
export const SEARCH_TEXTS = { blank: "请输入搜索关键词", failed: "搜索失败" } as const;

export interface HomeSearch {
  keyword: string;
  channel: string;
  type: "mp3" | "mp4";
  page: number;
}

export interface HomeSearchResult {
  list: CatalogueItem[];
  total: number;
  capped: boolean;
  page: number;
  pageSize: number;
}

/** GET /api/forntend/indexsearch; rejects with the server's msg or 搜索失败. */
export async function searchCatalogue(q: HomeSearch): Promise<HomeSearchResult> {
  const params = new URLSearchParams({
    keyword: q.keyword,
    page: String(q.page),
    limit: String(HOME_SEARCH_PAGE_SIZE),
    type: q.type,
  });
  if (q.channel) params.set("channelid", q.channel);
  let body: Awaited<ReturnType<typeof apiGet<HomeSearchResult>>>;
  try {
    body = await apiGet<HomeSearchResult>(`/api/forntend/indexsearch?${params}`, null);
  } catch {
    throw new Error(SEARCH_TEXTS.failed);
  }
  if (!body || body.code !== 1) throw new Error(body?.msg || SEARCH_TEXTS.failed);
  return body.data;
}
