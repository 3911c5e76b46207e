import { searchMessages, type SearchResult, type SearchStreamDone, type SearchStreamSource } from "@contracts/search";
import { AppError } from "../../errors.js";
import { linkedAbort } from "../../lib/linked-abort.js";
import { appendingMerge, mergeHits } from "./merge.js";
import type { StartCost } from "./places.js";
import { ProviderSkipped, ProviderUnavailable, type ProviderQuery, type ProviderResult, type SearchProvider } from "./provider.js";

export const providerMessages = {
  timeout: "搜索超时",
  failed: "搜索失败",
} as const;

class ProviderTimeout extends Error {}

function failureMessage(reason: unknown): string {
  if (reason instanceof ProviderTimeout) return providerMessages.timeout;
  if (reason instanceof ProviderUnavailable) return reason.message;
  return providerMessages.failed;
}

/** Runs one provider under its own timeout and the caller's signal; never waits longer. */
async function runProvider(provider: SearchProvider, query: ProviderQuery, outer?: AbortSignal): Promise<ProviderResult> {
  const { controller, dispose } = linkedAbort(outer);
  const signal = controller.signal;
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
    dispose();
  }
}

/** What a search publishes, in order: one `source` per provider asked (the first one leading), then `done`. */
export type SearchEvent = { event: "source"; data: SearchStreamSource } | { event: "done"; data: SearchStreamDone };

/**
 * One search in flight or finished, shared by everyone who asked it (ADR 0050): the merged
 * route awaits `result`; a stream subscribes and gets what has arrived so far, then the rest.
 */
export interface SearchRun {
  readonly query: ProviderQuery;
  /** Published so far, in order; `done` last once every provider has settled. */
  readonly events: readonly SearchEvent[];
  /** Replays `events`, then calls the listener with each new one; returns the unsubscribe. */
  subscribe(listener: (event: SearchEvent) => void): () => void;
  /** The merged answer (merge.ts); rejects with 502 搜索失败 when every provider asked failed. */
  readonly result: Promise<SearchResult>;
  /** Listeners still subscribed (none once done): a stream that went away must leave none. */
  readonly listening: number;
}

export interface FanOutOptions {
  signal?: AbortSignal;
  onProviderError?: (source: string, error: unknown) => void;
  /** Which place of a hit found by several sources starts fastest (places.ts); provider order when absent. */
  startCost?: StartCost;
}

type Settled = { ok: true; value: ProviderResult } | { ok: false; reason: unknown };

/**
 * Asks every provider at once, each under its own timeout, and publishes each answer as it
 * settles. The first provider (the catalogue) leads: answers that come before it wait for it,
 * so a stream always starts with `local`. The merged answer is made once all have settled, in
 * provider order, by the same rules as ever (merge.ts); the stream's lists are the same hits
 * ranked per source and deduplicated against what was published before (`appendingMerge`):
 * a copy of a hit already published is sent as that hit's `places` (ADR 0052).
 */
export function fanOut(providers: readonly SearchProvider[], query: ProviderQuery, options: FanOutOptions = {}): SearchRun {
  const events: SearchEvent[] = [];
  const listeners = new Set<(event: SearchEvent) => void>();
  const settled: (Settled | undefined)[] = providers.map(() => undefined);
  const published = providers.map(() => false);
  const append = appendingMerge(query.keyword, options.startCost);
  const sources = providers.map((p) => ({ source: p.code, name: p.name }));

  function publish(event: SearchEvent) {
    events.push(event);
    for (const listener of [...listeners]) listener(event);
  }

  function outcomeOf(i: number, s: Settled): SearchStreamSource {
    const provider = providers[i]!;
    const base = { source: provider.code, name: provider.name, ...(i === 0 ? { sources } : {}) };
    if (s.ok) {
      const { list, places } = append(s.value);
      return { ...base, list, total: s.value.total, capped: s.value.capped ?? false, ...(places.length ? { places } : {}) };
    }
    const skipped = s.reason instanceof ProviderSkipped || s.reason instanceof ProviderUnavailable;
    const error = s.reason instanceof ProviderSkipped ? undefined : failureMessage(s.reason);
    return { ...base, list: [], total: 0, capped: false, ...(error ? { error } : {}), ...(skipped ? { skipped } : {}) };
  }

  /** Publishes every settled answer not yet published, none before the leading one. */
  function flush() {
    if (!settled[0]) return;
    settled.forEach((s, i) => {
      if (!s || published[i]) return;
      published[i] = true;
      publish({ event: "source", data: outcomeOf(i, s) });
    });
  }

  const asked = providers.map((provider, i) =>
    runProvider(provider, query, options.signal).then(
      (value) => void (settled[i] = { ok: true, value }),
      (reason: unknown) => {
        settled[i] = { ok: false, reason };
        if (!(reason instanceof ProviderSkipped)) options.onProviderError?.(provider.code, reason);
      },
    ).finally(flush),
  );

  const result = Promise.all(asked).then(() => {
    const merged = combine(query, providers, settled as Settled[], options.startCost);
    const done: SearchStreamDone = { total: merged.total, capped: merged.capped, page: query.page, pageSize: query.pageSize, errors: merged.errors };
    if (merged.failed) done.error = searchMessages.searchFailed;
    publish({ event: "done", data: done });
    listeners.clear();
    if (merged.failed) throw new AppError(502, searchMessages.searchFailed, { errors: merged.errors });
    return merged.result;
  });
  // A run only streamed (nobody awaits the merged answer) must not be an unhandled rejection.
  result.catch(() => {});

  return {
    query,
    events,
    result,
    get listening() {
      return listeners.size;
    },
    subscribe(listener) {
      for (const event of [...events]) listener(event);
      if (events.at(-1)?.event === "done") return () => {};
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/**
 * The merged answer: a failing provider is named in `errors` and the others still answer; only
 * when all of those asked fail is the search a failure. A provider that does not serve the
 * query (ProviderSkipped) is neither: it is left out. `total` adds the totals.
 */
function combine(query: ProviderQuery, providers: readonly SearchProvider[], settled: Settled[], startCost?: StartCost) {
  const result: SearchResult = { list: [], total: 0, capped: false, page: query.page, pageSize: query.pageSize, errors: [] };
  const answered: ProviderResult[] = [];
  let skipped = 0;
  settled.forEach((s, i) => {
    if (!s.ok && s.reason instanceof ProviderSkipped) skipped += 1;
    else if (!s.ok) result.errors.push({ source: providers[i]!.code, msg: failureMessage(s.reason) });
    else {
      answered.push(s.value);
      result.total += s.value.total;
      result.capped ||= s.value.capped ?? false;
    }
  });
  const asked = providers.length - skipped;
  const failed = asked > 0 && result.errors.length === asked;
  result.list = failed ? [] : mergeHits(query.keyword, answered, startCost);
  return { result, errors: result.errors, total: result.total, capped: result.capped, failed };
}
