/**
 * Request ids (ADR 0044): every request gets one, every log line of the request carries it
 * (`reqId`, Fastify's child logger), every answer says it in `X-Request-Id`, and every 5xx body
 * holds it (`requestId`), so a visitor's report can be found in the logs.
 *
 * An incoming `X-Request-Id` is kept only when the connection comes from a trusted proxy
 * (TRUST_PROXY, the same rule as X-Forwarded-For: nginx's `$request_id` then names the request
 * in both logs); from anyone else it is ignored, so nobody can plant ids or junk in our logs.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import type { Config } from "../config.js";
import { boundedMemo } from "../lib/bounded-memo.js";

export const REQUEST_ID_HEADER = "x-request-id";

/** What an incoming id may look like (nginx's $request_id is 32 hex digits; a UUID fits too). */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

type Trust = (address: string, hop: number) => boolean;

/** Distinct peer addresses whose trust is remembered (a few proxies, in practice). */
const TRUST_MEMO_MAX = 4096;

/** Who is a proxy, read once from `TRUST_PROXY`, for Fastify, the request ids and the kept-page lane alike. */
export interface ProxyTrust {
  /** What Fastify's `trustProxy` option gets: the boolean as it is, a list as `trusted`. */
  readonly option: boolean | Trust;
  readonly trusted: Trust;
}

/**
 * Fastify's own reading of `trustProxy` (lib/request.js), so all agree on who is a proxy. A
 * list is compiled once and its answer remembered per address: proxy-addr parses the address
 * on every call, and every request behind a proxy asks about the same peer (a list's answer
 * does not depend on the hop).
 */
export function proxyTrust(trustProxy: Config["trustProxy"]): ProxyTrust {
  if (trustProxy === false) return { option: false, trusted: () => false };
  if (trustProxy === true) return { option: true, trusted: () => true };
  const compiled = fastifysProxyAddr().compile(trustProxy);
  const remembered = boundedMemo(TRUST_MEMO_MAX, (address: string) => compiled(address, 0));
  const trusted: Trust = (address) => remembered(address);
  return { option: trusted, trusted };
}

/** Fastify's dependency, resolved from Fastify itself (the same version it compiles with). */
function fastifysProxyAddr() {
  const fromFastify = createRequire(createRequire(import.meta.url).resolve("fastify"));
  return fromFastify("@fastify/proxy-addr") as { compile(values: string[]): Trust; all(req: IncomingMessage, trust: Trust): string[] };
}

/** Fastify options: our `genReqId` and no header taken on trust (log lines say `reqId`, Fastify's default). */
export function requestIdOptions({ trusted }: ProxyTrust) {
  return {
    requestIdHeader: false as const,
    genReqId(req: IncomingMessage): string {
      const given = req.headers[REQUEST_ID_HEADER];
      if (typeof given === "string" && ACCEPTED_ID.test(given)) {
        const peer = req.socket?.remoteAddress;
        if (peer && trusted(peer, 0)) return given;
      }
      return randomUUID();
    },
  };
}

/**
 * The client's address as Fastify's `request.ip` reads it (the nearest hop not trusted), for
 * answers given outside Fastify (the kept-page lane's log line).
 */
export function clientAddressOf({ option, trusted }: ProxyTrust): (req: IncomingMessage) => string | undefined {
  if (option === false) return (req) => req.socket.remoteAddress;
  const proxyAddr = fastifysProxyAddr();
  return (req) => (req.headers["x-forwarded-for"] === undefined ? req.socket.remoteAddress : proxyAddr.all(req, trusted).at(-1));
}
