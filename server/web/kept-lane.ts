import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { accessLineWriter } from "../http/access-line.js";
import { isValidHost } from "../http/early-errors.js";
import { boundedMemo } from "../lib/bounded-memo.js";
import type { Lane } from "../http/front-door.js";
import { REQUEST_ID_HEADER } from "../http/request-id.js";
import { type Encoding, pickEncoding } from "../http/shared-answer.js";
import { pagePattern } from "../modules/metrics/http-metrics.js";
import { VISITOR_COOKIE } from "../modules/visitors/visitor-cookie.js";
import type { KeptPage } from "./kept-page.js";
import type { PageTarget } from "./page-keys.js";
import { isExcluded } from "./shared.js";

export interface KeptLaneOptions {
  /** The kept page for a target when it can be sent as it is (page-cache.ts `keptNow`). */
  keptNow: (target: PageTarget) => KeptPage | undefined;
  targetOf: (url: string) => PageTarget | null;
  /** Prefixes of other plugins (shared.ts). */
  excluded: readonly string[];
  /** Whether Fastify's router gives this path to the pages' catch-all (not a static file, not another route). */
  isPageRoute: (pathname: string) => boolean;
  /** The visitor id of a `vid` cookie value we signed, or null. */
  verifyVisitor: (value: string | undefined) => string | null;
  /**
   * For a suite page asked without a signed cookie: the new visitor's Set-Cookie value, null when
   * its address is past the new-visitor limit (the page is sent without one, as Fastify's path
   * does), undefined when only Fastify's path can tell (the limit is counted in Redis, or a proxy
   * names the request's protocol). Called once the page is known to be sent.
   */
  newVisitorCookie?: (req: IncomingMessage, address: string | undefined) => string | null | undefined;
  /** The app's own request ids and client addresses (request-id.ts), as Fastify's path has them. */
  requestId: (req: IncomingMessage) => string;
  clientAddress: (req: IncomingMessage) => string | undefined;
  log: FastifyBaseLogger;
  /** The request histogram (metrics on). */
  observe?: (route: string, method: string, statusCode: number, seconds: number) => void;
  /** The pre-render's quiet-moment tracker (in-flight.ts). */
  arrived?: () => void;
}

/** URLs whose target is remembered (the routes are fixed once the app is ready). */
const TARGET_MEMO_MAX = 4096;
interface UrlTarget {
  target: PageTarget;
  /** The request histogram's label (the page's pattern). */
  route: string;
}

/** Distinct Accept-Encoding values remembered (browsers send a handful). */
const ENCODING_MEMO_MAX = 64;

/**
 * The kept pages' lane (ADR 0069): a GET or HEAD of a kept page that can be sent as it is is
 * answered before Fastify sees the request, from the page's precomputed answer (its headers
 * made once per encoding: helmet's, its CSP, type, ETag, encoding, length), with what the app's
 * hooks add per request: the request id, the access log line, the request histogram, the
 * pre-render's arrival mark. Everything else goes on to Fastify, which answers it as before:
 * another method, an unusual Host or a forwarded one, an address of another route or a static
 * file, a page not kept or not fresh, a suite page asked without a signed visitor cookie when
 * its new visitor's cookie cannot be decided here (`newVisitorCookie`), the app closing. Nothing
 * here waits: a page is sent in the turn its request arrived, or left to Fastify with nothing
 * written.
 */
export function keptLane(o: KeptLaneOptions): Lane & { close(): void; readonly served: number } {
  let open = true;
  let served = 0;
  const accessLine = accessLineWriter(o.log);
  const encodingFor = boundedMemo(ENCODING_MEMO_MAX, pickEncoding);
  const encodingOf = (header: string | undefined): Encoding | null => (header === undefined ? null : encodingFor(header));

  /** The kept page a URL names and its metrics label, or null when Fastify must see it: by the URL alone, so remembered. */
  function targetOf(url: string): UrlTarget | null {
    // `//x` and `/\x` are redirected by the page route.
    const second = url.charCodeAt(1);
    if (second === 47 || second === 92) return null;
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    if (isExcluded(path, o.excluded)) return null;
    const target = o.targetOf(url);
    return target && o.isPageRoute(path) ? { target, route: pagePattern(url) } : null;
  }
  const rememberedTargetOf = boundedMemo(TARGET_MEMO_MAX, targetOf);

  /** The kept page to send, its metrics label, and whether it goes to a new visitor (a suite page without a signed cookie). */
  function pageFor(req: IncomingMessage, url: string): { page: KeptPage; route: string; newVisitor: boolean } | undefined {
    // A forwarded Host is Fastify's to read.
    const host = req.headers.host;
    if (host === undefined || req.headers["x-forwarded-host"] !== undefined || !isValidHost(host)) return undefined;
    const known = rememberedTargetOf(url);
    if (!known) return undefined;
    const { target, route } = known;
    const newVisitor = target.kind === "suite" && o.verifyVisitor(cookieValue(req.headers.cookie, VISITOR_COOKIE)) === null;
    if (newVisitor && !o.newVisitorCookie) return undefined;
    const page = o.keptNow(target);
    return page && { page, route, newVisitor };
  }

  return {
    get served() {
      return served;
    },
    /** From now on every request goes to Fastify (closing: its answers say `Connection: close`). */
    close() {
      open = false;
    },
    serve(req: IncomingMessage, res: ServerResponse): boolean {
      const method = req.method;
      if (!open || (method !== "GET" && method !== "HEAD")) return false;
      const started = performance.now();
      const url = req.url ?? "/";
      let status: number;
      let id: string;
      let route: string;
      let address: string | undefined;
      try {
        const found = pageFor(req, url);
        if (!found) return false;
        // Read once: the new visitor's limit and the access line both need it.
        address = o.clientAddress(req);
        // A new visitor's cookie goes out beside the bytes (ADR 0053): its view beacon carries it.
        const setCookie = found.newVisitor ? o.newVisitorCookie!(req, address) : null;
        if (setCookie === undefined) return false;
        route = found.route;
        const answer = found.page.laneAnswer(encodingOf(req.headers["accept-encoding"]), req.headers["if-none-match"]);
        id = o.requestId(req);
        status = answer.status;
        res.writeHead(status, setCookie ? [REQUEST_ID_HEADER, id, "set-cookie", setCookie, ...answer.headers] : [REQUEST_ID_HEADER, id, ...answer.headers]);
        res.end(method === "HEAD" ? undefined : answer.body);
      } catch (err) {
        // Nothing sent yet: Fastify answers (and logs whatever goes wrong there too).
        if (!res.headersSent) return false;
        o.log.error({ err, url }, "kept-page lane failed mid-answer");
        res.destroy();
        return true;
      }
      served++;
      o.arrived?.();
      const responseTime = performance.now() - started;
      o.observe?.(route, method, status, responseTime / 1000);
      // Fastify's access line (request-log.ts), as Fastify's serializers write it.
      accessLine({ reqId: id, req, ip: address, statusCode: status, responseTime });
      return true;
    },
  };
}

/** The first value of cookie `name` in a Cookie header (as @fastify/cookie reads it: the first wins). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  let from = 0;
  while (from < header.length) {
    const end = header.indexOf(";", from);
    const part = header.slice(from, end < 0 ? header.length : end);
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
    if (end < 0) break;
    from = end + 1;
  }
  return undefined;
}
