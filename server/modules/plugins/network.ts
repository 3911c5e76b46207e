import type { DbLogger } from "../../db/types.js";
import type { AnswerListener } from "../sources/fetch/answer-tap.js";
import { createSourceFetcher, type LookupFunction } from "../sources/fetch/index.js";
import { createMediaStreamer } from "../sources/fetch/stream.js";
import { BROWSER_USER_AGENT } from "../sources/fetch/user-agent.js";
import { SourceError, type FetchRequest, type MediaStreamer } from "../sources/types.js";
import type { FetchAnswer, GuestFetchRequest } from "./sandbox/protocol.js";

/**
 * A plugin's only way out (issue 21): its requests through the same guarded client as the
 * built-in sites (any public host, never a private or loopback address after DNS unless
 * `OUTBOUND_ALLOW` lists it; bounded time, size and redirects; the source's concurrency), and its
 * media through the guarded streamer. Answers are shaped as the sandbox's axios expects.
 */


export interface PluginNetworkOptions {
  logger: Pick<DbLogger, "warn">;
  /** Addresses and CIDR ranges let through the guard (`OUTBOUND_ALLOW`; tests: their fixture servers). */
  allowAddresses?: string[];
  lookup?: LookupFunction;
  timeoutMs?: number;
  concurrency?: number;
  minIntervalMs?: number;
  maxBodyBytes?: number;
}

export interface PluginNetwork {
  answer(request: GuestFetchRequest): Promise<FetchAnswer>;
  media: MediaStreamer;
  setTimeoutMs(ms: number): void;
  /** Listens to the answers its fetcher gets (the canary, ADR 0049). */
  tapAnswers(listener: AnswerListener): () => void;
  close(): void;
}

const METHODS = new Set(["GET", "POST", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const CODES: Record<string, string> = { timeout: "ECONNABORTED", forbidden_address: "ERR_FORBIDDEN_ADDRESS", network: "ERR_NETWORK", http: "ERR_BAD_RESPONSE" };

export function pluginNetwork(source: string, options: PluginNetworkOptions): PluginNetwork {
  const shared = {
    source,
    allowedHosts: "any" as const,
    userAgent: BROWSER_USER_AGENT,
    logger: options.logger,
    ...(options.allowAddresses?.length ? { allowAddresses: options.allowAddresses } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  };
  const fetcher = createSourceFetcher({
    ...shared,
    timeoutMs: options.timeoutMs ?? 8_000,
    concurrency: options.concurrency ?? 4,
    minIntervalMs: options.minIntervalMs ?? 0,
    maxBodyBytes: options.maxBodyBytes ?? 5 * 1024 * 1024,
  });
  const media = createMediaStreamer(shared);

  return {
    async answer(request) {
      try {
        const body = request.body?.base64 !== undefined ? Buffer.from(request.body.base64, "base64") : request.body?.text;
        const response = await fetcher.fetch({
          url: request.url,
          method: METHODS.has(String(request.method).toUpperCase()) ? (String(request.method).toUpperCase() as FetchRequest["method"]) : "GET",
          headers: request.headers ?? {},
          ...(body !== undefined ? { body } : {}),
          ...(request.maxRedirects !== undefined ? { maxRedirects: request.maxRedirects } : {}),
          ...(request.encoding ? { encoding: request.encoding } : {}),
          // The bytes go to the sandbox's worker as they are (moved, not copied) and are decoded
          // there: no page is turned into text on the server's own thread.
          raw: true,
        });
        const meta = { status: response.status, url: response.url, headers: response.headers };
        const bytes = response.bytes.buffer.slice(response.bytes.byteOffset, response.bytes.byteOffset + response.bytes.byteLength) as ArrayBuffer;
        return { meta, bytes };
      } catch (err) {
        if (err instanceof SourceError) return { meta: { error: err.message, code: CODES[err.kind] ?? "ERR_NETWORK" } };
        return { meta: { error: err instanceof Error ? err.message : String(err), code: "ERR_NETWORK" } };
      }
    },
    media,
    setTimeoutMs: (ms) => fetcher.setTimeoutMs(ms),
    tapAnswers: (listener) => fetcher.tapAnswers(listener),
    close() {
      fetcher.close();
      media.close();
    },
  };
}
