import { categoryPath, suitePath } from "@contracts/paths";
import type { FastifyBaseLogger } from "fastify";
import type { RequestsInFlight } from "../http/in-flight.js";
import type { AppServices } from "../services.js";
import type { PageCache } from "./page-cache.js";
import { type PageTarget, WARM_TARGETS } from "./page-keys.js";

/** What the background pass renders besides the warm pages (0 and 0: no pass at all). */
export interface PrerenderOptions {
  /** The most-played suites of the charts (`/sutie/{id}.html`, the address every link uses). */
  suites: number;
  /** The first pages of every enabled category (default order). */
  categoryPages: number;
  /**
   * Milliseconds the start goes on rendering that list before the server listens (at least the
   * first suite and the first category page): a process's renders get cheaper as its code is
   * compiled, and a burst of pages right after the start meets compiled code (ADR 0045).
   */
  beforeListenMs: number;
}

/**
 * Events arriving closer together than this make one pass (a bulk edit publishes many), but a
 * pass waits no longer than PASS_MAX_DELAY_MS after the first of them.
 */
const PASS_DELAY_MS = 1_000;
const PASS_MAX_DELAY_MS = 10_000;

/**
 * Renders, in the background, the kept pages people are most likely to ask for first (ADR 0038):
 * after start and after change events, one page at a time and only while no request is in
 * flight, each through the page cache exactly as a visitor's first request would (the same
 * target, the same canonical render), skipping what is kept already. A render also compiles
 * the code of its page kind and reads the database pages every page of that kind reads, so the
 * first requests of other suites and categories are cheaper too.
 */
export function backgroundPrerender({
  cache,
  targetOf,
  services,
  requests,
  log,
  options,
}: {
  cache: PageCache;
  /** The classification every request gets (page-keys.ts): a URL's kept page, or null. */
  targetOf: (url: string) => PageTarget | null;
  services: AppServices;
  requests: RequestsInFlight;
  log: FastifyBaseLogger;
  options: PrerenderOptions;
}) {
  const enabled = options.suites > 0 || options.categoryPages > 0;
  let started = false;
  let stopped = false;
  /** The pass in progress; `again`: an event came during it (its list may be out of date). */
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let firstPending = 0;
  let renders = 0;

  async function targets(): Promise<PageTarget[]> {
    const [suiteIds, categories] = await Promise.all([
      services.charts.mostPlayed(options.suites),
      options.categoryPages > 0 ? services.categories.listed() : [],
    ]);
    const suites = suiteIds.map(suitePath);
    const sorts = categories.flatMap(({ diyname, pages }) =>
      Array.from({ length: Math.min(pages, options.categoryPages) }, (_, i) => `${categoryPath(diyname)}?page=${i + 1}`),
    );
    // Both kinds from the start (each first render compiles its kind's code), the best first.
    const urls: string[] = [];
    for (let i = 0; i < Math.max(suites.length, sorts.length); i++) urls.push(...[suites[i], sorts[i]].filter((u) => u !== undefined));
    return [...WARM_TARGETS, ...urls.map(targetOf).filter((t) => t !== null)];
  }

  async function pass() {
    if (!(await requests.quiet(() => stopped || again))) return;
    const list = await targets();
    let rendered = 0;
    const began = performance.now();
    for (const target of list) {
      if (again || !(await requests.quiet(() => stopped || again))) break;
      const outcome = await cache.prerender(target, log);
      // ("full": that cache's rest is for what visitors ask; the other cache may have room.)
      if (outcome === "rendered") rendered++;
    }
    renders += rendered;
    if (rendered > 0) log.debug({ rendered, of: list.length, ms: Math.round(performance.now() - began) }, "pages pre-rendered");
  }

  function run() {
    timer = undefined;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = pass()
      .catch((err: unknown) => log.warn({ err }, "background pre-render failed"))
      .finally(() => {
        running = undefined;
        // An event during the pass: another pass, after the usual delay.
        if (again && !stopped) schedule();
      });
  }

  /** A pass after PASS_DELAY_MS of no events (at most PASS_MAX_DELAY_MS after the first). */
  function schedule() {
    if (!started || stopped) return;
    if (running) {
      again = true;
      return;
    }
    const now = performance.now();
    if (timer) clearTimeout(timer);
    else firstPending = now;
    timer = setTimeout(run, Math.min(PASS_DELAY_MS, Math.max(0, firstPending + PASS_MAX_DELAY_MS - now)));
    timer.unref();
  }

  if (enabled) {
    services.bus.subscribe((event) => {
      // The sites' own charts are on no page; everything else may have dropped kept pages.
      if (event.type !== "sourceCharts") schedule();
    });
  }

  return {
    /**
     * When the app is ready: renders the list's pages before it resolves (before listening) for
     * `beforeListenMs`, at least the first suite and the first category page (a process's first
     * renders of a kind also compile its code, which then serves every other page of that kind),
     * then starts the first pass in the background for the rest.
     */
    async start() {
      if (!enabled || started) return;
      started = true;
      const began = performance.now();
      try {
        const list = await targets();
        const firsts = new Set((["suite", "category"] as const).map((kind) => list.find((t) => t.kind === kind)));
        let rendered = 0;
        for (const target of list) {
          if (stopped) break;
          if (performance.now() - began >= options.beforeListenMs && !firsts.has(target)) continue;
          if ((await cache.prerender(target, log)) === "rendered") rendered++;
        }
        log.debug({ rendered, ms: Math.round(performance.now() - began) }, "pages pre-rendered before listening");
      } catch (err) {
        log.warn({ err }, "first pages not pre-rendered");
      }
      if (stopped) return;
      firstPending = performance.now();
      timer = setTimeout(run, 0);
      timer.unref();
    },

    /** No new render from now on; resolves when the one in progress has ended. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },

    /** Pages rendered by passes so far (tests, logs). */
    get renders() {
      return renders;
    },

    /** Resolves when no pass is running or due (tests). */
    async idle() {
      while (running || timer) {
        await running;
        if (timer) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

export type BackgroundPrerender = ReturnType<typeof backgroundPrerender>;
