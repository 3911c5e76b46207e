import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { DbLogger } from "../../../db/types.js";
import { SourceError, type MediaStream, type MediaStreamer } from "../types.js";
import { addressAllowed, addressAllowList, ForbiddenAddressError, guardedLookup, systemLookup, type LookupFunction } from "./address-guard.js";
import { hostMatcher } from "./host-pattern.js";

export interface MediaStreamerOptions {
  source: string;
  /** The source's media hosts (registry `mediaHosts`), names or patterns (`*.vvvdj.com`, host-pattern.ts), every redirect target too; `any`: every public host (plugins). */
  allowedHosts: string[] | "any";
  userAgent: string;
  logger: Pick<DbLogger, "warn">;
  /** Until the upstream's status line and headers (default 5 s). */
  firstByteMs?: number;
  /** A whole stream, however slow the listener (default 2 h: a long mix at a slow pace). */
  maxDurationMs?: number;
  maxRedirects?: number;
  /** Tests only, as for the page fetcher. */
  allowAddresses?: string[];
  lookup?: LookupFunction;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The streaming side of the safe outbound client (issue 11's media proxy): the same address
 * rules as `client.ts` (configured hosts only, no non-public address after DNS, checked at
 * connect time), but the body is handed over as a stream instead of read whole. Bounded in
 * time to the first byte and in total duration; the caller's signal (the browser went away)
 * destroys the upstream request.
 */
export function createMediaStreamer(options: MediaStreamerOptions): MediaStreamer & { close(): void } {
  const { source, userAgent, logger, firstByteMs = 5_000, maxDurationMs = 2 * 60 * 60_000, maxRedirects = 3 } = options;
  const isMediaHost = options.allowedHosts === "any" ? () => true : hostMatcher(options.allowedHosts);
  const allowAddresses = addressAllowList(options.allowAddresses);
  const lookup = guardedLookup(options.lookup ?? systemLookup, allowAddresses);
  const agents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };

  function refuse(url: URL, reason: string, address?: string): SourceError {
    logger.warn({ source, url: url.toString(), host: url.hostname, address, reason }, "media request refused (SSRF guard)");
    return new SourceError(source, "forbidden_address", `${reason}: ${url.host}`);
  }

  function checkTarget(url: URL): void {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw refuse(url, "scheme not allowed");
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/gu, "");
    if (!isMediaHost(host)) throw refuse(url, "host is not a media host of this source");
    if (net.isIP(host) !== 0 && !addressAllowed(host, allowAddresses)) throw refuse(url, "non-public address", host);
  }

  function hop(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = (url.protocol === "https:" ? https : http).request(url, {
        headers: { "user-agent": userAgent, "accept-encoding": "identity", ...headers },
        agent: agents[url.protocol as "http:" | "https:"],
        lookup: lookup as unknown as net.LookupFunction,
      });
      // Destroyed by hand, not through request's `signal`: that one raises an AbortError on
      // streams nobody listens to once the answer is being piped.
      const stop = () => {
        req.destroy();
        res?.destroy();
      };
      let res: http.IncomingMessage | undefined;
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
      const firstByte = setTimeout(() => req.destroy(new SourceError(source, "timeout", `no answer from ${url.host} within ${firstByteMs} ms`)), firstByteMs);
      req.on("error", (error) => {
        clearTimeout(firstByte);
        signal.removeEventListener("abort", stop);
        if (error instanceof SourceError) return reject(error);
        if (error instanceof ForbiddenAddressError) return reject(refuse(url, "resolves to a non-public address", error.address));
        if (signal.aborted) return reject(new SourceError(source, "timeout", "media request aborted"));
        reject(new SourceError(source, "network", `${url.host}: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
      });
      req.on("response", (answer) => {
        clearTimeout(firstByte);
        res = answer;
        answer.once("close", () => signal.removeEventListener("abort", stop));
        resolve(answer);
      });
      req.end();
    });
  }

  return {
    async open(address, requestHeaders, callerSignal): Promise<MediaStream> {
      const signal = AbortSignal.any([callerSignal, AbortSignal.timeout(maxDurationMs)]);
      let url = new URL(address);
      let headers = Object.fromEntries(Object.entries(requestHeaders).map(([k, v]) => [k.toLowerCase(), v]));
      for (let redirects = 0; ; redirects += 1) {
        checkTarget(url);
        const res = await hop(url, headers, signal);
        const location = res.headers.location;
        if (!REDIRECTS.has(res.statusCode ?? 0) || !location) {
          return { status: res.statusCode ?? 0, headers: res.headers, body: res, url: url.toString() };
        }
        res.resume();
        if (redirects >= maxRedirects) throw new SourceError(source, "http", `more than ${maxRedirects} redirects`, res.statusCode);
        const next = new URL(location, url);
        if (next.host !== url.host) {
          const { cookie: _cookie, authorization: _authorization, ...rest } = headers;
          headers = rest;
        }
        url = next;
      }
    },
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
