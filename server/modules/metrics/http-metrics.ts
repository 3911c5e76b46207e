import { PAGES } from "@contracts/access";
import { isWarmUp } from "../../web/warm-up.js";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Registry } from "prom-client";
import { LabelledHistogram } from "./labelled-histogram.js";

/**
 * Requests per route (ADR 0044): one histogram whose `_count` is the request rate and whose
 * buckets are the latency (to the answer's last byte: a streamed mix lands in +Inf). Labels are
 * bounded: the route's pattern (never the raw URL), the method among the usual ones, the status
 * class. The work per request is one observe on a series kept per label set.
 */
export const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"];

/** The pages (contracts/access.ts, the same list web/app/routes.ts is tested against). */
const STATIC_PAGES = new Set(PAGES.filter((p) => !p.path.includes(":")).map((p) => p.path));
const PARAM_PAGES: [RegExp, string][] = PAGES.filter((p) => p.path.includes(":")).map((p) => [
  new RegExp(`^${p.path.replace(/:\w+/g, "[^/]+")}$`),
  p.path,
]);

/**
 * The page pattern of a URL the web shell's catch-all (`/*`) answered: React Router's routes
 * without running its matcher; anything else is the not-found page, `/*`.
 */
export function pagePattern(url: string): string {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (STATIC_PAGES.has(path)) return path;
  for (const [pattern, label] of PARAM_PAGES) if (pattern.test(path)) return label;
  return "/*";
}

/** The route label of a request: its pattern, a page's pattern, or `unmatched` (404 handler). */
export function routeLabel(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return "unmatched";
  return pattern === "/*" ? pagePattern(request.url) : pattern;
}

export function registerHttpMetrics(app: FastifyInstance, registry: Registry) {
  const duration = new LabelledHistogram(
    "djsearch_http_request_duration_seconds",
    "Time from a request's arrival to its answer's end, by route pattern, method and status class",
    ["route", "method", "status_class"],
    HTTP_BUCKETS,
    registry,
  );

  /** One answer: its route label, method, status and seconds from arrival to end. */
  const observe = (route: string, method: string, statusCode: number, seconds: number) => {
    const methodLabel = METHODS.has(method) ? method : "other";
    const status = STATUS_CLASSES[Math.floor(statusCode / 100) - 1] ?? "other";
    duration.observe(duration.series([route, methodLabel, status]), seconds);
  };
  app.addHook("onResponse", (request, reply, done) => {
    // The server's own requests before it listens (ADR 0045) are nobody's.
    if (isWarmUp(request)) return done();
    observe(routeLabel(request), request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  // The kept-page lane's answers, which no Fastify hook sees (kept-lane.ts).
  app.decorate("observeAnswer", observe);
}

declare module "fastify" {
  interface FastifyInstance {
    /** Counts an answer given outside Fastify's hooks in the request histogram (only when metrics are on). */
    observeAnswer?: (route: string, method: string, statusCode: number, seconds: number) => void;
  }
}
