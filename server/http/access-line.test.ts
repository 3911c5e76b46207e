import type { IncomingMessage } from "node:http";
import Fastify, { type FastifyBaseLogger } from "fastify";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createLogger } from "../lib/log-output.js";
import { type AccessFields, accessLineWriter } from "./access-line.js";

/** Fastify's logger around a pino root that writes into `lines`, as buildApp makes it (loggerInstance). */
function fastifyLog(root: (out: { write(text: string): void }) => pino.Logger) {
  const lines: string[] = [];
  const app = Fastify({ loggerInstance: root({ write: (text) => void lines.push(text) }) });
  return { log: app.log, lines };
}

const request = (url: string, headers: Record<string, string> = { host: "127.0.0.1:3000" }, remotePort: number | undefined = 40123) =>
  ({ method: "GET", url, headers, socket: { remotePort } }) as unknown as IncomingMessage;

/** Requests whose fields JSON must escape, or that lack what a line usually has. */
const REQUESTS: AccessFields[] = [
  { reqId: "6a8fae8b-1a38-4775-8c29-a037f55a5ccb", req: request("/site/1.html"), ip: "127.0.0.1", statusCode: 200, responseTime: 0.0625 },
  { reqId: 'proxy "id" \\', req: request('/x?q="a"\\b&c=%E4%B8%AD'), ip: "2001:db8::1", statusCode: 304, responseTime: 12.5 },
  { reqId: "r", req: request("/\u00e9\u00ff\u0080?\u007f", { host: "\u00e9.test" }), ip: undefined, statusCode: 404, responseTime: 3 },
  { reqId: "t", req: request("/a\tb", {}, undefined), ip: "10.0.0.1", statusCode: 200, responseTime: 1e-7 },
  { reqId: "long", req: request(`/${"长".repeat(300)}`), ip: "10.0.0.2", statusCode: 200, responseTime: 0.5 },
];

/** The same line through pino's generic path (the lane's former way: Fastify's serializers). */
function viaInfo(log: FastifyBaseLogger, f: AccessFields) {
  const req = { method: f.req.method, url: f.req.url, headers: f.req.headers, host: f.req.headers.host, ip: f.ip, socket: f.req.socket };
  log.info({ reqId: f.reqId, req, res: { statusCode: f.statusCode }, responseTime: f.responseTime }, "request completed");
}

const withoutTime = (line: string) => line.replace(/,"time":\d+/, "");

describe("access line", () => {
  it("writes, without pino's generic path, the very line pino writes through Fastify's serializers", () => {
    const { log, lines } = fastifyLog((out) => createLogger({ level: "info", format: "json", out }));
    const write = accessLineWriter(log);
    let generic = 0;
    const info = log.info.bind(log);
    (log as { info: unknown }).info = (...args: Parameters<typeof info>) => {
      generic++;
      return info(...args);
    };
    for (const fields of REQUESTS) {
      write(fields);
      const direct = lines.pop()!;
      viaInfo(log, fields);
      const throughPino = lines.pop()!;
      expect(withoutTime(direct)).toBe(withoutTime(throughPino));
      expect(JSON.parse(direct)).toMatchObject({ level: 30, reqId: fields.reqId, req: { url: fields.req.url }, res: { statusCode: fields.statusCode }, msg: "request completed" });
    }
    // Only the comparison lines went through log.info.
    expect(generic).toBe(REQUESTS.length);
    // A request with Accept-Version (Fastify's serializer writes it as `version`): through pino.
    write({ ...REQUESTS[0], req: request("/v", { host: "h", "accept-version": "2" }) });
    expect(generic).toBe(REQUESTS.length + 1);
    expect(JSON.parse(lines.pop()!).req.version).toBe("2");
  });

  it("writes nothing below its level, and the terminal's format reads the line as pino's", () => {
    const quiet = fastifyLog((out) => createLogger({ level: "warn", format: "json", out }));
    accessLineWriter(quiet.log)(REQUESTS[0]);
    expect(quiet.lines).toEqual([]);
    const terminal = fastifyLog((out) => createLogger({ level: "info", format: "pretty", out }));
    accessLineWriter(terminal.log)(REQUESTS[0]);
    expect(terminal.lines).toHaveLength(1);
    expect(terminal.lines[0]).toContain("request completed GET /site/1.html 200");
  });

  it("goes through pino when the logger adds to its lines (a mixin, a log formatter)", () => {
    for (const options of [{ mixin: () => ({ node: "a" }) }, { formatters: { log: (o: object) => ({ ...o, shaped: true }) } }]) {
      const { log, lines } = fastifyLog((out) => pino({ level: "info", ...options }, out));
      accessLineWriter(log)(REQUESTS[1]);
      const line = JSON.parse(lines[0]!);
      expect(line).toMatchObject({ reqId: REQUESTS[1].reqId, req: { url: REQUESTS[1].req.url, remoteAddress: "2001:db8::1" }, msg: "request completed" });
      expect(line.node ?? line.shaped).toBeTruthy();
    }
  });
});
