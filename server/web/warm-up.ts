import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * Requests a server makes to itself before it listens (ADR 0045). A process's first requests
 * run its request path (hooks, routing, the kept pages' serving) as freshly compiled code: 50
 * at once for the kept home page took ~300 ms right after a start and ~180 ms after a hundred
 * of these, which take ~0.1 s. They carry a secret of this process, so the access log and the
 * request metrics leave them out; nobody else can make a request look like one.
 */
const WARM_UP_HEADER = "x-djsearch-warm-up";
const secret = randomBytes(16).toString("hex");

export const isWarmUp = (request: FastifyRequest): boolean => request.headers[WARM_UP_HEADER] === secret;

/**
 * Kept pages any visitor may ask, at no cost to anyone: no view counted, no visitor cookie, no
 * rate-limited route. A missing path gives the kept 404 page.
 */
const WARM_UP_URLS = ["/", "/login", "/forgot-password", "/no-such-page"] as const;

/** `requests` requests through app.inject, one at a time (call after `app.ready()`, before `listen`). */
export async function warmRequestPath(app: FastifyInstance, requests = 100): Promise<{ requests: number; ms: number }> {
  const began = performance.now();
  for (let i = 0; i < requests; i++) {
    await app.inject({
      url: WARM_UP_URLS[i % WARM_UP_URLS.length]!,
      // Both encodings browsers ask for: each has its own serving path.
      headers: { "accept-encoding": i % 2 === 0 ? "gzip, deflate, br" : "gzip", [WARM_UP_HEADER]: secret },
    });
  }
  return { requests, ms: Math.round(performance.now() - began) };
}
