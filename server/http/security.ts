import { createRequire } from "node:module";
import type { FastifyInstance, FastifyReply } from "fastify";
import { randomToken } from "../lib/random-token.js";

/**
 * Security headers with a Content-Security-Policy the site works under:
 * - scripts: our own files; a page rendered per request adds a nonce for React Router's inline
 *   hydration scripts (`scriptNonce`, passed to the SSR renderer), a kept page the hashes of its
 *   own (`scriptHashCsp`, made once with the page). Only scripts get a nonce: a style nonce
 *   would make browsers ignore 'unsafe-inline', which antd needs;
 * - styles: antd's CSS-in-JS injects <style> tags at run time, hence 'unsafe-inline';
 * - media: our own files, blob: for hls.js (MediaSource) and https: for source-site streams
 *   resolved at play time; images likewise (source-site covers).
 * Development (Vite HMR) gets no CSP.
 */
const NONCE = "{nonce}";
const CSP_DIRECTIVES: Record<string, string[]> = {
  "default-src": ["'self'"],
  "base-uri": ["'self'"],
  "object-src": ["'none'"],
  "frame-ancestors": ["'self'"],
  "form-action": ["'self'"],
  "script-src": ["'self'", `'nonce-${NONCE}'`],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:", "blob:", "https:"],
  "media-src": ["'self'", "blob:", "https:"],
  "font-src": ["'self'", "data:"],
  "connect-src": ["'self'"],
  "worker-src": ["'self'", "blob:"],
};
// Serialized once, split around the nonce: helmet rebuilt the policy from its directives on
// every request, ~8% of serving a suite's data.
const [CSP_BEFORE_NONCE, CSP_AFTER_NONCE] = Object.entries(CSP_DIRECTIVES)
  .map(([name, values]) => `${name} ${values.join(" ")}`)
  .join("; ")
  .split(NONCE);
/** Any other answer of a page's address (static files, kept pages before their own): no inline script. */
const PAGE_CSP = CSP_BEFORE_NONCE.slice(0, -" 'nonce-".length) + CSP_AFTER_NONCE.slice(1);

/**
 * The policy of a kept page (server/web/page-cache.ts): the same, with the SHA-256 of each of
 * its inline scripts instead of a nonce. A kept page is the same bytes for every visitor, so a
 * nonce would have to be spliced in per request and could never be answered with a 304 (ADR 0033).
 * `hashes`: base64 digests.
 */
export function scriptHashCsp(hashes: readonly string[]): string {
  return CSP_BEFORE_NONCE.slice(0, -"'nonce-".length) + hashes.map((h) => `'sha256-${h}'`).join(" ") + CSP_AFTER_NONCE.slice(1);
}

/** API answers are data, never a document: nothing may load from them or frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** helmet's options: the headers every answer carries besides the CSP. */
export const HELMET_OPTIONS = {
  contentSecurityPolicy: false,
  // Covers and media may be embedded from other origins' pages (share cards).
  crossOriginResourcePolicy: { policy: "cross-origin" },
  crossOriginEmbedderPolicy: false,
} as const;

type HelmetMiddleware = (req: unknown, res: { setHeader(name: string, value: unknown): void; removeHeader(name: string): void }, next: (err?: unknown) => void) => void;

let helmetHeaders: [string, string][] | undefined;
/** helmet's own headers for our options, worked out once by helmet itself (no second list to drift). */
export function securityHeaders(): [string, string][] {
  if (!helmetHeaders) {
    // helmet is @fastify/helmet's dependency: resolved from there, whatever the hoisting.
    const fromPlugin = createRequire(createRequire(import.meta.url).resolve("@fastify/helmet"));
    const helmet = fromPlugin("helmet") as (options: object) => HelmetMiddleware;
    const headers: [string, string][] = [];
    helmet(HELMET_OPTIONS)({}, { setHeader: (name, value) => headers.push([name.toLowerCase(), String(value)]), removeHeader() {} }, (err) => {
      if (err) throw err;
    });
    helmetHeaders = headers;
  }
  return helmetHeaders;
}

/**
 * Every answer's security headers from one hook and constant strings (ADR 0053): helmet's,
 * worked out once for our options (they do not depend on the request; @fastify/helmet ran
 * helmet's eleven middlewares per request), and the CSP, whose nonce only a page rendered per
 * request makes (`scriptNonce`).
 */
export async function registerSecurityHeaders(app: FastifyInstance, opts: { dev: boolean }) {
  const headers = securityHeaders();
  app.addHook("onRequest", (request, reply, done) => {
    for (const [name, value] of headers) reply.header(name, value);
    if (!opts.dev) reply.header("content-security-policy", request.url.startsWith("/api/") && !request.url.startsWith("/api/docs") ? API_CSP : PAGE_CSP);
    done();
  });
}

/**
 * A nonce for the inline scripts of a page rendered for this request, its CSP set to allow them;
 * "" when no CSP is sent (development).
 */
export function scriptNonce(reply: FastifyReply): string {
  if (reply.getHeader("content-security-policy") !== PAGE_CSP) return "";
  const nonce = randomToken(16);
  reply.header("content-security-policy", CSP_BEFORE_NONCE + nonce + CSP_AFTER_NONCE);
  return nonce;
}
