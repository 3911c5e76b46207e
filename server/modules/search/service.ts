import { SEARCH_DEFAULT_PAGE_SIZE, searchMessages, type SearchQueryParsed, type SearchResult } from "@contracts/search";
import { AppError } from "../../errors.js";
import type { ProviderQuery, ProviderResult, SearchProvider } from "./provider.js";
import { normalize } from "./search-text.js";

export interface SearchServiceOptions {
  /** Where a provider failure is logged (the answer only carries its Chinese message). */
  onProviderError?: (source: string, error: unknown) => void;
}

export const providerMessages = {
  timeout: "搜索超时",
  failed: "搜索失败",
} as const;

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
 * others still answer; only when all of them fail is the search a failure (搜索失败).
 *
 * Merging: providers answer the same page of their own ranking; the page lists them in
 * provider order (local first) and `total` adds their totals. With one provider (today) that is
 * exactly its page.
 */
export function searchService(providers: SearchProvider[], options: SearchServiceOptions = {}) {
  return {
    async search(input: SearchQueryParsed, signal?: AbortSignal): Promise<SearchResult> {
      const keyword = normalize(input.keyword);
      if (keyword === "") throw new AppError(400, searchMessages.keywordRequired);
      const page = input.page ?? 1;
      const pageSize = input.pageSize ?? input.limit ?? SEARCH_DEFAULT_PAGE_SIZE;
      const query: ProviderQuery = { keyword, page, pageSize, type: input.type, channel: input.channelid, kind: input.filter };

      const selected = providers.filter((p) => p.serves(query.channel));
      const settled = await Promise.allSettled(selected.map((p) => runProvider(p, query, signal)));

      const result: SearchResult = { list: [], total: 0, capped: false, page, pageSize, errors: [] };
      const seen = new Set<string>();
      settled.forEach((outcome, i) => {
        const provider = selected[i];
        if (outcome.status === "rejected") {
          options.onProviderError?.(provider.code, outcome.reason);
          const msg = outcome.reason instanceof ProviderTimeout ? providerMessages.timeout : providerMessages.failed;
          result.errors.push({ source: provider.code, msg });
          return;
        }
        for (const item of outcome.value.list) {
          const key = `${item.channel}:${item.url}`;
          if (seen.has(key)) continue;
          seen.add(key);
          result.list.push(item);
        }
        result.total += outcome.value.total;
        result.capped ||= outcome.value.capped ?? false;
      });
      if (selected.length > 0 && result.errors.length === selected.length) {
        throw new AppError(502, searchMessages.searchFailed, { errors: result.errors });
      }
      return result;
    },
  };
}
