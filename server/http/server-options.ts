import type { Server } from "node:http";
import type { FastifyHttpOptions } from "fastify";
import type { Config } from "../config.js";
import { clientErrorHandler, frameworkErrors } from "./early-errors.js";

/** Node's default, stated: the request line and headers together (a 431 past it). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * The HTTP server's limits against clients that send slowly or badly (ADR 0014):
 * - `requestTimeout`: the whole request (headers and body) must arrive within it. Node counts
 *   it until the request is received, not while the answer streams, so an hour-long mix still
 *   downloads at any pace. `headersTimeout` bounds the headers alone.
 * - Node checks both every `connectionsCheckingInterval` (its default, 30 s, would let a
 *   30 s limit run to a minute): here a second at most.
 * - Errors before any route (parser failures, timeouts, undecodable URLs) answer like every
 *   other error (early-errors.ts).
 */
export function serverOptions(config: Pick<Config, "requestTimeoutMs" | "headersTimeoutMs">) {
  const shortest = Math.min(config.requestTimeoutMs, config.headersTimeoutMs);
  return {
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(shortest / 4))),
      maxHeaderSize: MAX_HEADER_BYTES,
      // A missing Host is answered by registerHostCheck, with our envelope and headers.
      requireHostHeader: false,
    },
    clientErrorHandler,
    frameworkErrors,
  } satisfies FastifyHttpOptions<Server>;
}
