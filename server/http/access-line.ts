import type { IncomingMessage } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import pino from "pino";

/** What the access line says of an answer given outside Fastify (the kept-page lane, ADR 0069). */
export interface AccessFields {
  reqId: string;
  req: IncomingMessage;
  /** The client's address as Fastify's `request.ip` reads it. */
  ip: string | undefined;
  statusCode: number;
  responseTime: number;
}

export type AccessLineWriter = (fields: AccessFields) => void;

const MESSAGE = "request completed";

// pino's own serializer of a line (no write): what the fast line is checked against.
type PinoInternals = Record<symbol, unknown>;
const S = pino.symbols;

/**
 * Fastify's access line ("request completed": reqId, req, res.statusCode, responseTime; ADR 0067)
 * for answers given outside Fastify. The line is the one pino would write for
 * `log.info({ reqId, req, res, responseTime }, "request completed")` through Fastify's
 * serializers, put together directly: pino's generic path (each key looked up among the
 * serializers, the request object made and stringified) was a tenth of a kept page's answer.
 * The direct line is used only when it equals pino's own for a sample request, checked here
 * with pino's serializer; with any mixin, log formatter, write hook or stream that wants
 * metadata (or a request that sends `Accept-Version`), the line goes through pino as before.
 */
export function accessLineWriter(log: FastifyBaseLogger): AccessLineWriter {
  // What Fastify's request serializer reads of a request (fastify/lib/logger-pino.js).
  const fieldsFor = ({ reqId, req, ip, statusCode, responseTime }: AccessFields) => ({
    reqId,
    req: { method: req.method, url: req.url, headers: req.headers, host: req.headers.host, ip, socket: req.socket },
    res: { statusCode },
    responseTime,
  });
  const throughPino: AccessLineWriter = (f) => log.info(fieldsFor(f), MESSAGE);
  const p = log as unknown as PinoInternals;
  const stream = p[S.streamSym] as { write(line: string): unknown; [k: symbol]: unknown } | undefined;
  const hooks = p[S.hooksSym] as { streamWrite?: unknown; logMethod?: unknown } | undefined;
  const formatters = p[S.formattersSym] as { log?: unknown } | undefined;
  const asJson = p[S.asJsonSym] as ((obj: object, msg: string, level: number, time: string) => string) | undefined;
  const time = p[S.timeSym] as (() => string) | undefined;
  const levelPrefix = (p[S.lsCacheSym] as Record<number, string> | undefined)?.[30];
  if (!stream || !asJson || !time || levelPrefix === undefined || p[S.mixinSym] || hooks?.streamWrite || hooks?.logMethod || formatters?.log || stream[S.needsMetadataGsym]) {
    return throughPino;
  }
  const chindings = p[S.chindingsSym] as string;
  const line = (f: AccessFields, at: string): string => {
    const { req } = f;
    let fields = `{"method":${JSON.stringify(req.method)},"url":${JSON.stringify(req.url)}`;
    if (req.headers.host !== undefined) fields += `,"host":${JSON.stringify(req.headers.host)}`;
    if (f.ip !== undefined) fields += `,"remoteAddress":${JSON.stringify(f.ip)}`;
    if (req.socket.remotePort !== undefined) fields += `,"remotePort":${req.socket.remotePort}`;
    return `${levelPrefix}${at}${chindings},"reqId":${JSON.stringify(f.reqId)},"req":${fields}},"res":{"statusCode":${f.statusCode}},"responseTime":${f.responseTime},"msg":"${MESSAGE}"}\n`;
  };
  const viaPino = (f: AccessFields, at: string) => asJson.call(log, fieldsFor(f), MESSAGE, 30, at);
  // The check: a request with characters JSON must escape, as pino's serializers would write it.
  const sample = {
    reqId: 'id-"1"',
    req: { method: "GET", url: '/a?b="\\"&c=\u00e9', headers: { host: "example.test:80" }, socket: { remotePort: 5 } } as unknown as IncomingMessage,
    ip: "192.0.2.1",
    statusCode: 200,
    responseTime: 0.125,
  };
  if (line(sample, ',"time":1') !== viaPino(sample, ',"time":1')) return throughPino;
  const enabled = () => (log as unknown as pino.Logger).isLevelEnabled("info");
  return (f) => {
    if (!enabled()) return;
    if (f.req.headers["accept-version"] !== undefined) return throughPino(f);
    stream.write(line(f, time()));
  };
}
