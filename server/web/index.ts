import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { declareAccess } from "../http/auth";
import { scriptNonce } from "../http/security";
import type { AppContext } from "../../web/app/lib/app-context";
import { sendFetchResponse, toFetchRequest } from "./fetch-bridge";
import type { GetLoadContext } from "./load-context";
import { type PageCacheOptions, pageCache } from "./page-cache";
import { keptLane, type KeptLaneOptions } from "./kept-lane";
import { pageTargets } from "./page-keys";
import { backgroundPrerender, type BackgroundPrerender, type PrerenderOptions } from "./prerender";
import type { FrontDoor } from "../http/front-door";
import type { RequestsInFlight } from "../http/in-flight";
import type { AppServices } from "../services";
import { DEFAULT_EXCLUDED_PREFIXES, isExcluded, type PageHandler, withoutLeadingSlashes } from "./shared";

export type { ExtraLoadContext, GetLoadContext } from "./load-context";
export { DEFAULT_EXCLUDED_PREFIXES } from "./shared";

export interface WebOptions {
  mode: "production" | "development";
  /** The in-process services every loader receives in its context (besides cspNonce). */
  getLoadContext: GetLoadContext;
  /** Project root holding build/ and vite.config.ts; defaults to the current directory. */
  root?: string;
  /** Path prefixes owned by other plugins: never rendered as pages. */
  excludePrefixes?: readonly string[];
  /** Keep public pages (production only, ADR 0033): the services whose events drop them, and the caps. */
  keep?: {
    services: AppServices;
    prerender?: PrerenderOptions & { requests: RequestsInFlight };
    /** Kept pages answered in front of Fastify (kept-lane.ts, ADR 0069): the server's door, and the app's ids and addresses. */
    lane?: { door: FrontDoor } & Pick<KeptLaneOptions, "requestId" | "clientAddress">;
  } & PageCacheOptions;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The kept pages' background pre-render (ADR 0038), when pages are kept. */
    pagePrerender?: BackgroundPrerender;
  }
}

/**
 * The web shell: static files plus React Router SSR for every other GET/HEAD.
 * Register it last: its catch-all route only sees URLs no other plugin claimed.
 */
export async function registerWeb(app: FastifyInstance, opts: WebOptions) {
  const root = opts.root ?? process.cwd();
  const excluded = opts.excludePrefixes ?? DEFAULT_EXCLUDED_PREFIXES;

  await app.register(async (scope) => {
    // Pages and static files are public; /user/* and /panda pages are guarded in the browser
    // (tokens live in localStorage) and their data comes from user/admin API routes.
    declareAccess(scope, "public");
    let handle: PageHandler;
    let kept: { cache: ReturnType<typeof pageCache>; targetOf: ReturnType<typeof pageTargets> } | undefined;
    if (opts.mode === "development") {
      handle = await (await import("./development")).setupDevelopment(scope, root, excluded);
    } else {
      const production = await (await import("./production")).setupProduction(scope, root);
      handle = production.handle;
      if (opts.keep) {
        const cache = pageCache(opts.keep.services, handle, opts.keep);
        const targetOf = pageTargets(production.build);
        kept = { cache, targetOf };
        const { prerender } = opts.keep;
        const background =
          prerender && backgroundPrerender({ cache, targetOf, services: opts.keep.services, requests: prerender.requests, log: app.log, options: prerender });
        if (background) app.decorate("pagePrerender", background);
        app.addHook("onReady", async () => {
          await cache.warm(app.log);
          // A first page of each kind now, the rest in the background while requests are served.
          await background?.start();
        });
        // Before the server closes: no render after app.close() (the database closes next).
        if (background) app.addHook("preClose", () => background.stop());
        if (opts.keep.lane) {
          const { door, requestId, clientAddress } = opts.keep.lane;
          const services = opts.keep.services;
          const lane = keptLane({
            keptNow: cache.keptNow,
            targetOf,
            excluded,
            // Only the pages' catch-all has a `*` parameter (static files and API routes have their own routes).
            isPageRoute: (path) => app.findRoute({ method: "GET", url: path })?.params["*"] !== undefined,
            verifyVisitor: (value) => services.visitors.verify(value),
            newVisitorCookie: (req, address) => {
              // Counted in Redis (async), or the protocol is a proxy's to say: Fastify's path decides.
              const allowedNow = app.newVisitorAllowedNow;
              if (!allowedNow || address === undefined || req.headers["x-forwarded-proto"] !== undefined) return undefined;
              if (!allowedNow(address)) return null;
              return services.visitors.issue((req.socket as { encrypted?: boolean }).encrypted === true).setCookie;
            },
            requestId,
            clientAddress,
            log: app.log,
            observe: app.observeAnswer,
            arrived: opts.keep.prerender?.requests.arrived,
          });
          app.addHook("onReady", async () => {
            door.lane = lane;
          });
          app.addHook("preClose", async () => lane.close());
        }
      }
    }

    scope.get("/*", async (request: FastifyRequest, reply: FastifyReply) => {
      if (isExcluded(request.url, excluded)) return reply.callNotFound();
      // `//x` (or `/\x`) is no page of ours, and as a URL it names another host: one address per page.
      const normalised = withoutLeadingSlashes(request.url);
      if (normalised !== request.url) return reply.redirect(normalised, 301);
      const target = kept?.targetOf(request.url);
      if (target && (await kept!.cache.serve(request, reply, target))) return reply;
      const extra = await opts.getLoadContext(request, reply);
      const context: AppContext = { ...extra, cspNonce: scriptNonce(reply) };
      const response = await handle(toFetchRequest(request, reply), context);
      return sendFetchResponse(reply, response);
    });
  });
}
