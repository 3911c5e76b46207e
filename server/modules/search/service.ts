import { SEARCH_DEFAULT_PAGE_SIZE, searchMessages, type SearchQueryParsed, type SearchResult } from "@contracts/search";
import { AppError } from "../../errors.js";
import type { Cache } from "../../lib/cache.js";
import { mergeHits } from "./merge.js";
import { ProviderUnavailable, type ProviderQuery, type ProviderResult, type SearchProvider } from "./provider.js";
import { normalize } from "./search-text.js";

export interface SearchServiceOptions {
  /** Where a provider failure is logged (the answer only carries its Chinese message). */
  onProviderError?: (source: string, error: unknown) => void;
  /**
   * Repeated searches within the cache's fresh time are answered from it, keyed by the
   * normalised query; an answer naming failed sources is kept `partialAnswerMs` at most, so a
   * source that comes back is asked again soon. Without a cache every search asks the providers.
   */
  cache?: Cache<CachedAnswer> | (() => Cache<CachedAnswer> | undefined);
  partialAnswerMs?: number;
  /** Milliseconds since the epoch, for the age of a kept answer (the server's clock). */
  now?: () => number;
}

export interface CachedAnswer {
  result: SearchResult;
  storedAt: number;
}

/** How long an answer with errors may be served from the cache. */
export const PARTIAL_ANSWER_MS = 5_000;

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
 * others still answer; only when all of them fail is the search a failure (搜索失败).
 *
 * Paging: page n is every provider's page n (the local catalogue's page of `pageSize`, each
 * site's own page n as long as the site lists), merged into one list (merge.ts: ranked by
 * closeness to the keyword, deduplicated across sources); `total` adds their totals. With the
 * local provider alone that is exactly its page.
 */
export function searchService(providers: readonly SearchProvider[] | (() => readonly SearchProvider[]), options: SearchServiceOptions = {}) {
  const { partialAnswerMs = PARTIAL_ANSWER_MS, now = Date.now } = options;
  // Asked at each search: the external sources change while the site runs (ADR 0026).
  const current = typeof providers === "function" ? providers : () => providers;
  const cacheNow = typeof options.cache === "function" ? options.cache : () => options.cache as Cache<CachedAnswer> | undefined;

  async function ask(query: ProviderQuery, signal?: AbortSignal): Promise<SearchResult> {
    const selected = current().filter((p) => p.serves(query.channel));
    const settled = await Promise.allSettled(selected.map((p) => runProvider(p, query, signal)));

    const result: SearchResult = { list: [], total: 0, capped: false, page: query.page, pageSize: query.pageSize, errors: [] };
    const answered: ProviderResult[] = [];
    settled.forEach((outcome, i) => {
      const provider = selected[i];
      if (outcome.status === "rejected") {
        options.onProviderError?.(provider.code, outcome.reason);
        result.errors.push({ source: provider.code, msg: failureMessage(outcome.reason) });
        return;
      }
      answered.push(outcome.value);
      result.total += outcome.value.total;
      result.capped ||= outcome.value.capped ?? false;
    });
    if (selected.length > 0 && result.errors.length === selected.length) {
      throw new AppError(502, searchMessages.searchFailed, { errors: result.errors });
    }
    result.list = mergeHits(query.keyword, answered);
    return result;
  }

  async function cached(query: ProviderQuery, cache: Cache<CachedAnswer>): Promise<SearchResult> {
    const key = JSON.stringify([query.keyword, query.type, query.channel ?? "", query.kind ?? "", query.page, query.pageSize]);
    const load = async () => ({ result: await ask(query), storedAt: now() });
    let answer = await cache.get(key, load);
    if (answer.result.errors.length > 0 && now() - answer.storedAt > partialAnswerMs) {
      cache.delete(key);
      answer = await cache.get(key, load);
    }
    return answer.result;
  }

  return {
    async search(input: SearchQueryParsed, signal?: AbortSignal): Promise<SearchResult> {
      const keyword = normalize(input.keyword);
      if (keyword === "") throw new AppError(400, searchMessages.keywordRequired);
      const page = input.page ?? 1;
      const pageSize = input.pageSize ?? input.limit ?? SEARCH_DEFAULT_PAGE_SIZE;
      const query: ProviderQuery = { keyword, page, pageSize, type: input.type, channel: input.channelid, kind: input.filter };
      // A caller's own signal (one request giving up) must not end a load other callers share.
      const cache = signal ? undefined : cacheNow();
      return cache ? cached(query, cache) : ask(query, signal);
    },
  };
}
