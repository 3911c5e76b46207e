import type { AppDatabase } from "../../db/open.js";
import { toCatalogueItem } from "../catalog/catalogue-item.js";
import { searchRepo } from "./repo.js";
import type { ProviderQuery, ProviderResult, SearchProvider } from "./provider.js";
import { likePattern, normalize } from "./search-text.js";

/** Hits beyond this many are neither counted nor ranked: `total` then says "at least". */
export const LOCAL_SEARCH_CAP = 500;
/**
 * A single Han character (夜) matches a tenth of the catalogue and says little about what is
 * wanted; fewer of its hits are read and ranked (PGlite reads pages slowly).
 */
export const LOCAL_SEARCH_CAP_ONE_CHAR = 200;

const isOneHan = (keyword: string) => /^\p{Script=Han}$/u.test(keyword);
const capFor = (keyword: string, cap: number) => (isOneHan(keyword) ? Math.min(cap, LOCAL_SEARCH_CAP_ONE_CHAR) : cap);

/** Our own catalogue (items of every source site, collected or uploaded), through the trigram index. */
export function localProvider(db: AppDatabase, options: { cap?: number; timeoutMs?: number } = {}): SearchProvider {
  const repo = searchRepo(db);
  const maxCap = options.cap ?? LOCAL_SEARCH_CAP;
  return {
    code: "local",
    name: "本站",
    timeoutMs: options.timeoutMs ?? 5_000,
    serves: () => true,
    async search(q: ProviderQuery): Promise<ProviderResult> {
      const pattern = likePattern(q.keyword);
      if (pattern === null) return { list: [], total: 0 };
      const keyword = normalize(q.keyword);
      const cap = capFor(keyword, maxCap);
      const offset = (q.page - 1) * q.pageSize;
      if (offset >= cap) return { list: [], total: cap, capped: true };
      const { rows, total } = await repo.search({
        pattern,
        keyword,
        playtype: q.type,
        site: q.channel,
        kind: q.kind,
        // Pages end at the cap: the hit past it only tells that there are more.
        limit: Math.min(q.pageSize, cap - offset),
        offset,
        cap,
        // No trigram narrows one character: its hits are read by walking the items.
        walkInIdOrder: isOneHan(keyword),
      });
      const capped = total > cap;
      return { list: rows.map(toCatalogueItem), total: capped ? cap : total, capped, ranked: true };
    },
  };
}
