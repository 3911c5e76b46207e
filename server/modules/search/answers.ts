import { envelopeSchema, ok } from "@contracts/envelope";
import { searchResultSchema, type SearchQueryParsed } from "@contracts/search";
import { SharedAnswer } from "../../http/shared-answer.js";
import type { CacheRegistry } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";
import type { SearchRun } from "./fanout.js";
import type { ProviderQuery } from "./provider.js";
import type { SearchService } from "./service.js";

/**
 * Repeated searches: an answer is fresh 30 s; until 60 s it is still served while one background
 * load replaces it (no searcher waits for a refresh); never older. 2,000 answers and 16 MB at
 * most (their bytes as held: plain JSON until first compressed, then the compressed forms).
 * Only what no event reports (view counts, which order equal hits; the sources' speeds, which order
 * a hit's places: ADR 0052) can be that old.
 */
export const SEARCH_ANSWERS = { freshMs: 30_000, staleMs: 60_000, maxEntries: 2_000, maxBytes: 16 * 1024 * 1024 } as const;

/** How long an answer naming failed sources is served: a source that comes back is asked again soon. */
export const PARTIAL_ANSWER_MS = 5_000;

/** The key's and the entry's own cost, counted besides the answer's bytes. */
const ENTRY_OVERHEAD_BYTES = 256;

export const searchAnswerSchema = envelopeSchema(searchResultSchema);

interface KeptSearch {
  answer: SharedAnswer;
  /** The finished run: what the stream replays at once (ADR 0050). */
  run: SearchRun;
  /** Some provider failed: kept PARTIAL_ANSWER_MS at most. */
  partial: boolean;
  storedAt: number;
}

export interface SearchAnswersOptions {
  caches: CacheRegistry;
  /** Milliseconds since the epoch (the server's clock). */
  now: () => number;
  /** Called with a listener run after the external sources in use were rebuilt (ADR 0026). */
  onSourcesChange?: (listener: () => void) => unknown;
  /** Overrides of SEARCH_ANSWERS (benchmarks measure every search missing with `freshMs: 0`). */
  limits?: Partial<Record<keyof typeof SEARCH_ANSWERS, number>>;
  partialAnswerMs?: number;
}

/** Everything that changes the answer, once normalised: `specify` changes nothing. */
const keyOf = (q: ProviderQuery) => JSON.stringify([q.keyword, q.type, q.channel ?? "", q.kind ?? "", q.page, q.pageSize]);

/**
 * The search route's answers (ADR 0034): kept per normalised query, serialized and compressed
 * once per kept answer (a popular keyword then costs no query, serialization or compression
 * per request; ETag/304), and dropped by every change event that can change what a search finds
 * or shows. Concurrent identical searches share one load (the cache's), so a burst of one new
 * keyword is one query. An answer where every provider failed is an error and is not kept.
 */
export function searchAnswers(service: Pick<SearchService, "resolve" | "start">, options: SearchAnswersOptions) {
  const { caches, now, partialAnswerMs = PARTIAL_ANSWER_MS } = options;
  const limits: Record<keyof typeof SEARCH_ANSWERS, number> = { ...SEARCH_ANSWERS, ...options.limits };
  const cache = caches.create<KeptSearch>({
    name: "search",
    ...limits,
    // The run's events hold about the plain answer's size again (the stream's lists).
    sizeOf: (kept) => kept.answer.bytesHeld + kept.answer.size + ENTRY_OVERHEAD_BYTES,
    now,
    // Items (created, edited, hidden: found or not, what a hit shows), category names and links
    // shown in hits, and source sites (names, logos, the external sources themselves) change what
    // a search answers; any item may match any keyword, so every kept answer carries `items`.
    // View counts (the popularity order) publish no event: the 30 s bound covers them.
    tagsOf: () => [tags.items, tags.nav, tags.sources],
  });
  // The directory rebuilds after the `sources` event: answers kept meanwhile asked the old sources.
  options.onSourcesChange?.(() => cache.dropTags([tags.sources]));

  // Runs still asking their providers, by key: a stream joins the one its merged twin awaits.
  const inFlight = new Map<string, SearchRun>();

  async function load(key: string, query: ProviderQuery): Promise<KeptSearch> {
    const run = service.start(query);
    inFlight.set(key, run);
    try {
      const result = await run.result;
      return { answer: SharedAnswer.json(searchAnswerSchema, ok(result)), run, partial: result.errors.length > 0, storedAt: now() };
    } finally {
      if (inFlight.get(key) === run) inFlight.delete(key);
    }
  }

  /** The kept answer, or the one loading; a partial answer past its time is asked again. */
  async function kept(query: ProviderQuery, key: string): Promise<KeptSearch> {
    let found = await cache.get(key, () => load(key, query));
    if (found.partial && now() - found.storedAt > partialAnswerMs) {
      // Only the caller that still finds the old answer drops it; the others share its load.
      if (cache.peek(key) === found) cache.delete(key);
      found = await cache.get(key, () => load(key, query));
    }
    return found;
  }

  return {
    /** The answer to a search (400 for a keyword that normalises to nothing). */
    async get(input: SearchQueryParsed): Promise<SharedAnswer> {
      const query = service.resolve(input);
      return (await kept(query, keyOf(query))).answer;
    },
    /**
     * The run a stream follows: a kept one (finished: every source at once), else the one in
     * flight for the same query (started by either route), else a new one, which fills the
     * kept answer the merged route serves. 400 for a keyword that normalises to nothing.
     */
    async open(input: SearchQueryParsed): Promise<SearchRun> {
      const query = service.resolve(input);
      const key = keyOf(query);
      const settled = cache.has(key) ? cache.peek(key) : undefined;
      if (settled && !(settled.partial && now() - settled.storedAt > partialAnswerMs)) return (await kept(query, key)).run;
      if (settled) cache.delete(key);
      const loading = cache.get(key, () => load(key, query));
      // Every provider failing is the stream's `done` with 搜索失败; the rejection is the merged route's.
      loading.catch(() => {});
      return inFlight.get(key) ?? (await kept(query, key)).run;
    },
    stats: () => cache.stats(),
  };
}

export type SearchAnswers = ReturnType<typeof searchAnswers>;
