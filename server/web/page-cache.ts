import type { MusicInfo } from "@contracts/suite";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import { tags } from "../lib/cache-tags.js";
import { visitorId } from "../http/visitor.js";
import type { AppServices } from "../services.js";
import { type KeptPage, NotKept } from "./kept-page.js";
import { type Rendered, renderToKeep } from "./kept-render.js";
import { MISSING_CATEGORY, missingSuite, type PageTarget, WARM_TARGETS } from "./page-keys.js";
import type { PageHandler } from "./shared.js";

/** Caps of both caches together (each takes half). */
export interface PageCacheOptions {
  maxEntries?: number;
  /** Total bytes the kept pages may hold (their compressed forms). */
  maxBytes?: number;
}

/**
 * Home and category pages are rebuilt in the background after this long (views and plays move
 * lists and charts without an event), as the category answers are; nothing older than the stale
 * time is served. Other pages are kept until an event drops them.
 */
export const PAGE_FRESH_MS = 60_000;
const PAGE_MAX_STALE_MS = 10 * 60_000;
const PAGE_MAX_ENTRIES = 10_000;
/** A kept page holds ~8-40 KB (gzip and, once asked for, br): some thousands of pages. */
export const PAGE_MAX_BYTES = 64 * 1024 * 1024;
/**
 * The background pre-render (prerender.ts) fills a cache up to this share of its caps: the rest
 * is for the pages visitors ask, and a guess never pushes one of them out.
 */
export const PRERENDER_SHARE = 0.5;

/**
 * Public pages kept like the APIs' answers (ADR 0033): rendered once for every visitor and
 * served from memory until a change event names one of their tags (ADR 0054). A suite page counts
 * no view (its beacon does, ADR 0053); a new visitor still gets the visitor cookie there. What
 * cannot be kept is rendered per request as before (null).
 */
export function pageCache(
  services: AppServices,
  handle: PageHandler,
  { maxEntries = PAGE_MAX_ENTRIES, maxBytes = PAGE_MAX_BYTES }: PageCacheOptions = {},
) {
  // (Plus ~2 KB for its tags: a home page carries some hundred.)
  const sizeOf = (rendered: Rendered) => rendered.page.bytesHeld + 2048;
  // A page carries the tags of every cached answer its loaders read (lib/cache.ts gathers them:
  // the home page's, a category's, a suite's, the navigation's, the settings'), so an event drops
  // exactly the pages showing what it changed (cache-tags.ts); every page's layout shows the
  // navigation and the settings.
  const tagsOf = () => [tags.nav, tags.settings];
  const half = { maxEntries: Math.ceil(maxEntries / 2), maxBytes: Math.floor(maxBytes / 2), sizeOf, tagsOf };
  // Lists move with views and plays, which publish no event: refreshed in the background.
  const lists = services.caches.create<Rendered>({ name: "pages", freshMs: PAGE_FRESH_MS, staleMs: PAGE_MAX_STALE_MS, ...half });
  // Suite pages, the shells and the 404s: only events change them.
  const others = services.caches.create<Rendered>({ name: "pages-until-changed", ...half });
  const cacheFor = (target: PageTarget) => (target.kind === "home" || target.kind === "category" ? lists : others);

  async function kept(target: PageTarget, { log }: Pick<FastifyRequest, "log">): Promise<Rendered | null> {
    // An error while rendering is logged by the per-request render that follows (NotKept).
    const load = () => renderToKeep(handle, target, services, (err) => log.debug({ err }, "page not kept"));
    try {
      return await cacheFor(target).get(target.key, load);
    } catch (err) {
      // Rendered per request instead: the page as today, its error page and log included.
      if (!(err instanceof NotKept)) log.warn({ err }, "page not kept");
      return null;
    }
  }

  async function serveSuite(request: FastifyRequest, reply: FastifyReply, target: Extract<PageTarget, { kind: "suite" }>): Promise<boolean> {
    // A new visitor's cookie goes out (a header, not the bytes): the page's view beacon carries it.
    await visitorId(request, reply);
    let viewed: Awaited<ReturnType<AppServices["suites"]["current"]>>;
    try {
      viewed = await services.suites.current(target.id);
    } catch (err) {
      if (!(err instanceof AppError && err.status === 404)) return false;
      const missing = await kept(missingSuite(target.prefix, target.url), request);
      missing?.page.send(request, reply);
      return missing !== null;
    }
    let rendered = await kept(target, request);
    // The suites cache re-read the suite since the page was made (its freshness time, or an edit
    // by hand in SQL): the page is made again if what it shows differs.
    if (rendered && rendered.sources.suite !== viewed.kept) {
      if (rendered.sources.suite && fingerprint(rendered.sources.suite) === fingerprint(viewed.kept)) {
        rendered.sources.suite = viewed.kept;
      } else {
        others.delete(target.key);
        rendered = await kept(target, request);
      }
    }
    rendered?.page.send(request, reply);
    return rendered !== null;
  }

  return {
    /**
     * Renders the pages most asked for (WARM_TARGETS) before the first request: the first render
     * of a process also compiles the code it runs (seconds under load, not a visitor's to wait for).
     */
    async warm(log: FastifyRequest["log"]) {
      for (const target of WARM_TARGETS) await kept(target, { log });
    },

    /**
     * Renders the target into its cache, as a visitor's first request would, unless it is kept
     * (or being rendered) already, for the background pre-render: "full" when its cache holds
     * PRERENDER_SHARE of its caps, "failed" when the page cannot be kept.
     */
    async prerender(target: PageTarget, log: FastifyRequest["log"]): Promise<"kept" | "rendered" | "full" | "failed"> {
      const cache = cacheFor(target);
      if (cache.has(target.key)) return "kept";
      const { bytes, maxBytes, entries, maxEntries } = cache.stats();
      if (bytes >= maxBytes * PRERENDER_SHARE || entries >= maxEntries * PRERENDER_SHARE) return "full";
      return (await kept(target, { log })) ? "rendered" : "failed";
    },

    /**
     * The kept page for the target when it can be sent as it is, with no wait and no work
     * (the lane, kept-lane.ts): fresh in its cache and, for a suite page, showing the very data
     * the suites cache holds fresh. Otherwise undefined, and `serve` does what is due.
     */
    keptNow(target: PageTarget): KeptPage | undefined {
      const cache = cacheFor(target);
      if (target.kind === "suite") {
        const suite = services.suites.keptNow(target.id);
        if (suite === undefined || cache.peek(target.key)?.sources.suite !== suite) return undefined;
      }
      return cache.getFresh(target.key)?.page;
    },

    /**
     * Sends the kept page for the target: true once sent; false when it cannot be kept (render it
     * per request). (Not the reply: a FastifyReply is a thenable, and awaiting it yields nothing.)
     */
    async serve(request: FastifyRequest, reply: FastifyReply, target: PageTarget): Promise<boolean> {
      if (target.kind === "suite") return serveSuite(request, reply, target);
      if (target.kind === "category" && !(await services.categories.has(target.diyname).catch(() => true))) target = MISSING_CATEGORY;
      const rendered = await kept(target, request);
      rendered?.page.send(request, reply);
      return rendered !== null;
    },
  };
}

export type PageCache = ReturnType<typeof pageCache>;

const fingerprints = new WeakMap<MusicInfo, string>();
/** What a suite page shows of the suite's data (all but the views: the beacon shows the current count). */
function fingerprint(info: MusicInfo): string {
  let known = fingerprints.get(info);
  if (known === undefined) fingerprints.set(info, (known = JSON.stringify({ ...info, views: 0 })));
  return known;
}
