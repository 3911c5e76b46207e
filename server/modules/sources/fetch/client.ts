import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { DbLogger } from "../../../db/types.js";
import { linkedAbort } from "../../../lib/linked-abort.js";
import { SourceError, type FetchRequest, type FetchResponse, type SourceFetcher } from "../types.js";
import { addressAllowed, addressAllowList, ForbiddenAddressError, guardedLookup, systemLookup, type LookupFunction } from "./address-guard.js";
import { decodeBody } from "./decode.js";
import { answerTaps, type AnswerListener } from "./answer-tap.js";
import { createLimiter } from "./limiter.js";

export interface SourceFetcherOptions {
  /** The source's code (errors and log lines name it). */
  source: string;
  /** Exact host names this source may reach, every redirect target too; `any`: every public host (plugins). */
  allowedHosts: string[] | "any";
  /** Whole request, body included (default 8 s). */
  timeoutMs?: number;
  /** Default 5 MB. */
  maxBodyBytes?: number;
  /** Default 3. */
  maxRedirects?: number;
  /** Requests at once (default 4). */
  concurrency?: number;
  /** Between request starts (default 300 ms). */
  minIntervalMs?: number;
  /** The source's own (a browser's by default: user-agent.ts); a request's own `user-agent` header wins. */
  userAgent: string;
  logger: Pick<DbLogger, "warn">;
  /** Tests only: addresses of their fixture servers. Production never sets it. */
  allowAddresses?: string[];
  /** Tests only: a resolver standing in for DNS (the guard still checks what it answers). */
  lookup?: LookupFunction;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

interface Hop {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * The safe outbound client of one source (issue 11): only its configured hosts, never a
 * non-public address after DNS (checked at connect time), bounded time, body and redirects,
 * the source's User-Agent, and a per-source concurrency and rate cap. Statuses are returned; a
 * failure to get an answer is a SourceError.
 */
export interface OwnSourceFetcher extends SourceFetcher {
  close(): void;
  setTimeoutMs(ms: number): void;
  /** Listens to every final answer this fetcher gets until the returned function is called (the canary). */
  tapAnswers(listener: AnswerListener): () => void;
}

export function createSourceFetcher(options: SourceFetcherOptions): OwnSourceFetcher {
  const {
    source,
    maxBodyBytes = 5 * 1024 * 1024,
    maxRedirects = 3,
    concurrency = 4,
    minIntervalMs = 300,
    userAgent,
    logger,
  } = options;
  // Changeable while running (the back office's per-source timeout); a request keeps the one it started with.
  let timeoutMs = options.timeoutMs ?? 8_000;
  const allowedHosts = options.allowedHosts === "any" ? "any" : new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const allowAddresses = addressAllowList(options.allowAddresses);
  const lookup = guardedLookup(options.lookup ?? systemLookup, allowAddresses);
  // Kept-alive sockets were checked when they connected; a new connection is checked again.
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: concurrency, timeout: timeoutMs }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: concurrency, timeout: timeoutMs }),
  };
  const limit = createLimiter({ concurrency, minIntervalMs });
  const taps = answerTaps();

  function refuse(url: URL, reason: string, address?: string): SourceError {
    logger.warn({ source, url: url.toString(), host: url.hostname, address, reason }, "source request refused (SSRF guard)");
    return new SourceError(source, "forbidden_address", `${reason}: ${url.host}`);
  }

  /** Host allowed, scheme http(s), and an address literal checked here (net does not look literals up). */
  function checkTarget(url: URL): void {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw refuse(url, "scheme not allowed");
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/gu, "");
    if (allowedHosts !== "any" && !allowedHosts.has(host) && !allowedHosts.has(url.hostname.toLowerCase())) throw refuse(url, "host not configured for this source");
    if (net.isIP(host) !== 0 && !addressAllowed(host, allowAddresses)) throw refuse(url, "non-public address", host);
  }

  function hop(url: URL, requestHeaders: Record<string, string>, method: string, body: string | Buffer | undefined, signal: AbortSignal): Promise<Hop> {
    return new Promise<Hop>((resolve, reject) => {
      const headers: Record<string, string> = { "user-agent": userAgent, "accept-encoding": "identity", ...requestHeaders };
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      const req = (url.protocol === "https:" ? https : http).request(url, {
        method,
        headers,
        agent: agents[url.protocol as "http:" | "https:"],
        lookup: lookup as unknown as net.LookupFunction,
        signal,
      });
      let settled = false;
      // The first outcome wins: destroying an answer over the cap also emits "aborted".
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        reject(error);
        req.destroy();
      };
      req.on("error", (error) => fail(mapError(error, url, signal)));
      req.on("response", (res) => {
        const declared = Number(res.headers["content-length"] ?? NaN);
        if (Number.isFinite(declared) && declared > maxBodyBytes) {
          return fail(new SourceError(source, "http", `answer of ${declared} bytes is over the ${maxBodyBytes} byte cap`, res.statusCode));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBodyBytes) return fail(new SourceError(source, "http", `answer over the ${maxBodyBytes} byte cap`, res.statusCode));
          chunks.push(chunk);
        });
        const cut = () => fail(signal.aborted ? (signal.reason as Error) : new SourceError(source, "network", `connection closed mid-answer by ${url.host}`));
        res.on("error", (error) => fail(mapError(error, url, signal)));
        res.on("aborted", cut);
        res.on("end", () => {
          if (!res.complete) return cut();
          settled = true;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
      });
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  /** An aborted request keeps its raw error: `fetch` tells our timeout from the caller's abort. */
  function mapError(error: unknown, url: URL, signal: AbortSignal): Error {
    if (error instanceof SourceError) return error;
    if (error instanceof ForbiddenAddressError) return refuse(url, "resolves to a non-public address", error.address);
    if (signal.aborted) return error as Error;
    const code = (error as NodeJS.ErrnoException).code ?? "";
    return new SourceError(source, "network", `${url.host}: ${code || (error as Error).message}`);
  }

  async function run(request: FetchRequest, signal: AbortSignal): Promise<FetchResponse> {
    let url = new URL(request.url);
    let method = request.method ?? "GET";
    let body = request.body;
    let headers = lowerKeys(request.headers);
    for (let redirects = 0; ; redirects += 1) {
      checkTarget(url);
      const answer = await hop(url, headers, method, body, signal);
      const location = answer.headers.location;
      if (!REDIRECTS.has(answer.status) || !location) {
        const text = request.raw ? "" : decodeBody(answer.body, answer.headers["content-type"], request.encoding);
        return { status: answer.status, url: url.toString(), headers: flatHeaders(answer.headers), text, bytes: answer.body };
      }
      // Asked to follow fewer (a plugin's `maxRedirects: 0`): the redirect is the answer.
      if (request.maxRedirects !== undefined && redirects >= request.maxRedirects && request.maxRedirects < maxRedirects) {
        return { status: answer.status, url: url.toString(), headers: flatHeaders(answer.headers), text: "", bytes: answer.body };
      }
      if (redirects >= maxRedirects) throw new SourceError(source, "http", `more than ${maxRedirects} redirects`, answer.status);
      const next = new URL(location, url);
      if (next.host !== url.host) {
        // Credentials meant for one host do not follow a redirect to another.
        const { cookie: _cookie, authorization: _authorization, ...rest } = headers;
        headers = rest;
      }
      url = next;
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
      }
    }
  }

  return {
    async fetch(request) {
      const ms = timeoutMs;
      // One controller for the caller's abort and our timeout (linked-abort.ts: no AbortSignal.any).
      const { controller, dispose } = linkedAbort(request.signal);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
      }, ms);
      timer.unref();
      const signal = controller.signal;
      try {
        const answer = await limit(() => run(request, signal), signal);
        taps.report(answer);
        return answer;
      } catch (error) {
        if (error instanceof SourceError) throw error;
        if (signal.aborted) {
          throw new SourceError(source, "timeout", timedOut ? `no complete answer within ${ms} ms` : "request aborted by the caller");
        }
        throw new SourceError(source, "network", (error as Error).message);
      } finally {
        clearTimeout(timer);
        dispose();
      }
    },
    setTimeoutMs(ms: number) {
      timeoutMs = ms;
      // Read by the agents for each new or freed socket (Node's Agent keeps it in `options`).
      for (const agent of Object.values(agents)) (agent as unknown as { options: { timeout?: number } }).options.timeout = ms;
    },
    tapAnswers: (listener) => taps.tap(listener),
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) flat[key] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}
