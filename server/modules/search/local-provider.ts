import type { AppDatabase } from "../../db/open.js";
import { Cache } from "../../lib/cache.js";
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

/**
 * From this many items a busy keyword's hits are looked for among every 8th item first
 * (repo.ts): at 1,500,000 items that cuts the time of 周杰伦, zjl or remix to a third. Below it
 * the sample seldom holds more hits than the cap, and a second index probe plus hits spread over
 * eight times the pages cost more than they save (PGlite, 150,000 items: p50 +40-70%).
 */
export const SAMPLE_FROM_ITEMS = 500_000;

const isOneHan = (keyword: string) => /^\p{Script=Han}$/u.test(keyword);
const capFor = (keyword: string, cap: number) => (isOneHan(keyword) ? Math.min(cap, LOCAL_SEARCH_CAP_ONE_CHAR) : cap);

/** Our own catalogue (items of every source site, collected or uploaded), through the trigram index. */
export function localProvider(
  db: AppDatabase,
  options: { cap?: number; timeoutMs?: number; queriesOnThisThread?: boolean } = {},
): SearchProvider {
  const repo = searchRepo(db);
  // PGlite in process runs queries on this thread one after another anyway; taking them one per
  // loop turn lets the answers of the sites that arrived meanwhile be handled between them, where
  // a burst's catalogue queries would otherwise run as one block (bench/README.md, issue 22).
  // PostgreSQL's pool and PGlite on its own thread (ADR 0068) leave this thread free: only the
  // first yield applies there.
  const turn = options.queriesOnThisThread ? oneTaskPerTurn() : (task: () => Promise<ProviderResult>) => yieldOnce().then(task);
  const maxCap = options.cap ?? LOCAL_SEARCH_CAP;
  // One number per provider, read again in the background every 10 minutes.
  const size = new Cache<number>({ name: "search-catalogue-size", maxEntries: 1, maxBytes: 1024, sizeOf: () => 8, freshMs: 10 * 60_000, staleMs: 24 * 3_600_000 });
  return {
    code: "local",
    name: "本站",
    timeoutMs: options.timeoutMs ?? 5_000,
    serves: () => true,
    // The catalogue's query runs after a yield, so that the searches already read are dispatched
    // to their sites first (bench/README.md, issue 22: the last of 16 asked them ~120 ms late).
    search: (q) => turn(() => searchNow(q)),
  };

  async function searchNow(q: ProviderQuery): Promise<ProviderResult> {
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
      sampleFirst: (await size.get("", () => repo.approximateSize())) >= SAMPLE_FROM_ITEMS,
    });
    const capped = total > cap;
    return { list: rows.map(toCatalogueItem), total: capped ? cap : total, capped, ranked: true };
  }
}

const yieldOnce = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs the tasks given to it one after another, each starting in a loop turn of its own. */
export function oneTaskPerTurn() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(yieldOnce).then(task);
    tail = run.catch(() => undefined);
    return run;
  };
}
