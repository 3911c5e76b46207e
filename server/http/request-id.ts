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

export const REQUEST_ID_HEADER = "x-request-id";

/** What an incoming id may look like (nginx's $request_id is 32 hex digits; a UUID fits too). */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

type Trust = (address: string, hop: number) => boolean;

/** Fastify's own reading of `trustProxy` (lib/request.js), so both agree on who is a proxy. */
function trustOf(trustProxy: Config["trustProxy"]): Trust {
  if (trustProxy === false) return () => false;
  if (trustProxy === true) return () => true;
  // Fastify's dependency, resolved from Fastify itself (the same version it compiles with).
  const fromFastify = createRequire(createRequire(import.meta.url).resolve("fastify"));
  const proxyAddr = fromFastify("@fastify/proxy-addr") as { compile(values: string[]): Trust };
  return proxyAddr.compile(trustProxy);
}

/** Fastify options: our `genReqId` and no header taken on trust (log lines say `reqId`, Fastify's default). */
export function requestIdOptions(trustProxy: Config["trustProxy"]) {
  const trusted = trustOf(trustProxy);
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
export function clientAddressOf(trustProxy: Config["trustProxy"]): (req: IncomingMessage) => string | undefined {
  if (trustProxy === false) return (req) => req.socket.remoteAddress;
  const trusted = trustOf(trustProxy);
  const fromFastify = createRequire(createRequire(import.meta.url).resolve("fastify"));
  const proxyAddr = fromFastify("@fastify/proxy-addr") as { all(req: IncomingMessage, trust: Trust): string[] };
  return (req) => (req.headers["x-forwarded-for"] === undefined ? req.socket.remoteAddress : proxyAddr.all(req, trusted).at(-1));
}
