import { SEARCH_DEFAULT_PAGE_SIZE, searchMessages, type SearchQueryParsed, type SearchResult } from "@contracts/search";
import { AppError } from "../../errors.js";
import { fanOut, type SearchRun } from "./fanout.js";
import type { StartCost } from "./places.js";
import type { ProviderQuery, SearchProvider } from "./provider.js";
import { normalize } from "./search-text.js";

export { providerMessages } from "./fanout.js";

export interface SearchServiceOptions {
  /** Where a provider failure is logged (the answer only carries its Chinese message). */
  onProviderError?: (source: string, error: unknown) => void;
  /** Read once per search: which place of a hit found by several sources starts fastest (ADR 0052). */
  startCost?: () => StartCost;
}

/**
 * The search rules: resolve paging, ask every provider that serves the channel in parallel,
 * each under its timeout, and merge (fanout.ts: one run feeds the merged answer and the stream).
 * A failing provider is reported in `errors` and the others still answer; only when all of them fail is the search a failure (搜索失败). A provider
 * that does not serve the query (ProviderSkipped) is neither: it is left out of the answer.
 *
 * Paging: page n is every provider's page n (the local catalogue's page of `pageSize`, each
 * site's own page n as long as the site lists), merged into one list (merge.ts: ranked by
 * closeness to the keyword, deduplicated across sources); `total` adds their totals. With the
 * local provider alone that is exactly its page.
 */
export function searchService(providers: readonly SearchProvider[] | (() => readonly SearchProvider[]), options: SearchServiceOptions = {}) {
  // Asked at each search: the external sources change while the site runs (ADR 0026).
  const current = typeof providers === "function" ? providers : () => providers;

  /** The query every provider is asked, with the keyword normalised and paging resolved. */
  function resolve(input: SearchQueryParsed): ProviderQuery {
    const keyword = normalize(input.keyword);
    if (keyword === "") throw new AppError(400, searchMessages.keywordRequired);
    const page = input.page ?? 1;
    const pageSize = input.pageSize ?? input.limit ?? SEARCH_DEFAULT_PAGE_SIZE;
    return { keyword, page, pageSize, type: input.type, channel: input.channelid, kind: input.filter };
  }

  /** Starts one search: every provider that serves the channel, asked at once (fanout.ts). */
  function start(query: ProviderQuery, signal?: AbortSignal): SearchRun {
    const selected = current().filter((p) => p.serves(query.channel));
    // The sources' speeds are read when the first answer is merged, not before the sites are asked:
    // in a burst of searches each one's dispatch waits for the ones before it (bench/search-stream.ts).
    const speeds = options.startCost;
    let startCost: StartCost | undefined;
    const lazyStartCost: StartCost | undefined = speeds && ((source) => (startCost ??= speeds())(source));
    return fanOut(selected, query, { signal, onProviderError: options.onProviderError, startCost: lazyStartCost });
  }

  return {
    resolve,
    start,
    /** The merged answer of one search. */
    ask: (query: ProviderQuery, signal?: AbortSignal): Promise<SearchResult> => start(query, signal).result,
    /** One search, asked now (kept answers: answers.ts). */
    search: async (input: SearchQueryParsed, signal?: AbortSignal): Promise<SearchResult> => start(resolve(input), signal).result,
  };
}

export type SearchService = ReturnType<typeof searchService>;
