import { SEARCH_DEFAULT_PAGE_SIZE, searchMessages, type SearchQueryParsed, type SearchResult } from "@contracts/search";
import { AppError } from "../../errors.js";
import { mergeHits } from "./merge.js";
import { ProviderSkipped, ProviderUnavailable, type ProviderQuery, type ProviderResult, type SearchProvider } from "./provider.js";
import { normalize } from "./search-text.js";

export interface SearchServiceOptions {
  /** Where a provider failure is logged (the answer only carries its Chinese message). */
  onProviderError?: (source: string, error: unknown) => void;
}

export const providerMessages = {
  timeout: "搜索超时",
  failed: "搜索失败",
} as const;

function failureMessage(reason: unknown): string {
  if (reason instanceof ProviderTimeout) return providerMessages.timeout;
  if (reason instanceof ProviderUnavailable) return reason.message;
  return providerMessages.failed;
}

class ProviderTimeout extends Error {}

/** Runs one provider under its own timeout and the caller's signal; never waits longer. */
async function runProvider(provider: SearchProvider, query: ProviderQuery, outer?: AbortSignal): Promise<ProviderResult> {
  const controller = new AbortController();
  const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ProviderTimeout());
    }, provider.timeoutMs);
  });
  try {
    return await Promise.race([provider.search(query, signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The search rules: resolve paging, ask every provider that serves the channel in parallel,
 * each under its timeout, and merge. A failing provider is reported in `errors` and the
 * others still answer; only when all of them fail is the search a failure (搜索失败). A provider
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

  async function ask(query: ProviderQuery, signal?: AbortSignal): Promise<SearchResult> {
    const selected = current().filter((p) => p.serves(query.channel));
    const settled = await Promise.allSettled(selected.map((p) => runProvider(p, query, signal)));

    const result: SearchResult = { list: [], total: 0, capped: false, page: query.page, pageSize: query.pageSize, errors: [] };
    const answered: ProviderResult[] = [];
    let skipped = 0;
    settled.forEach((outcome, i) => {
      const provider = selected[i];
      if (outcome.status === "rejected" && outcome.reason instanceof ProviderSkipped) {
        skipped += 1;
        return;
      }
      if (outcome.status === "rejected") {
        options.onProviderError?.(provider.code, outcome.reason);
        result.errors.push({ source: provider.code, msg: failureMessage(outcome.reason) });
        return;
      }
      answered.push(outcome.value);
      result.total += outcome.value.total;
      result.capped ||= outcome.value.capped ?? false;
    });
    const asked = selected.length - skipped;
    if (asked > 0 && result.errors.length === asked) {
      throw new AppError(502, searchMessages.searchFailed, { errors: result.errors });
    }
    result.list = mergeHits(query.keyword, answered);
    return result;
  }

  return {
    resolve,
    ask,
    /** One search, asked now (kept answers: answers.ts). */
    search: async (input: SearchQueryParsed, signal?: AbortSignal): Promise<SearchResult> => ask(resolve(input), signal),
  };
}

export type SearchService = ReturnType<typeof searchService>;
