/**
 * Request ids (ADR 0044): in every answer's X-Request-Id, in every log line of the request
 * (Fastify's and the services'), and in every 5xx body; taken from X-Request-Id only when a
 * trusted proxy sends it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../errors.js";
import { captureLog } from "../testing/log-capture.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { sendEarlyError } from "./early-errors.js";
import { requestScopedLogger } from "./request-scope.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("request ids", () => {
  const log = captureLog("info");
  let testApp: TestApp;
  let trusted: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp("pglite", {
      logger: log.logger,
      extend: (app) => {
        const serviceLog = requestScopedLogger(app.log);
        app.get("/probe/crash", { config: { access: "public" } }, async () => {
          serviceLog.warn({ step: "before" }, "service line during the request");
          throw new Error("internal detail that must not leak");
        });
        app.get("/probe/upstream", { config: { access: "public" } }, async () => {
          throw new AppError(502, "搜索失败");
        });
        // The answers for errors before any route (early-errors.ts), as a page and as the envelope.
        app.get("/probe/early-page", { config: { access: "public" } }, (request, reply) => sendEarlyError(request, reply, 500, "服务器内部错误"));
        app.get("/api/probe/early", { config: { access: "public" } }, (request, reply) => sendEarlyError(request, reply, 500, "服务器内部错误"));
        app.get("/api/probe/early-400", { config: { access: "public" } }, (request, reply) => sendEarlyError(request, reply, 400, "请求错误"));
        app.get("/probe/later", { config: { access: "public" }, schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async (_request, reply) => {
          await reply.send({ ok: true });
          // A timer the request started logs after the answer ended: not under its id.
          setTimeout(() => serviceLog.info({ step: "after" }, "service line after the answer"), 20);
          return reply;
        });
      },
    });
    trusted = await createTestApp("pglite", { env: { TRUST_PROXY: "127.0.0.1" } });
  });
  afterAll(() => Promise.all([testApp?.close(), trusted?.close()]));

  it("every answer names its request in X-Request-Id, a new id each time", async () => {
    const a = await testApp.app.inject({ url: "/healthz" });
    const b = await testApp.app.inject({ url: "/api/no-such-route" });
    const c = await testApp.app.inject({ url: "/%E0%A4%A" }); // the router's bad-URL answer, before any hook
    for (const res of [a, b, c]) expect(res.headers["x-request-id"]).toMatch(UUID);
    expect(new Set([a, b, c].map((r) => r.headers["x-request-id"])).size).toBe(3);
    expect(c.statusCode).toBe(400);
  });

  it("a 500 keeps the envelope and its message, adds requestId, and every log line of it has the id", async () => {
    const res = await testApp.app.inject({ url: "/probe/crash" });
    expect(res.statusCode).toBe(500);
    const id = res.headers["x-request-id"] as string;
    const body = JSON.parse(res.body);
    expect(body).toEqual({ code: 0, msg: "服务器内部错误", time: expect.any(Number), data: null, requestId: id });
    expect(res.body).not.toContain("internal detail");

    const lines = log.lines.filter((l) => l.reqId === id);
    // One access line a request, at its end (ADR 0067); the incoming line is debug only.
    expect(lines.map((l) => l.msg)).toEqual(["service line during the request", "request failed", "request completed"]);
    expect(lines.at(-1)).toMatchObject({ req: { method: "GET", url: "/probe/crash" }, res: { statusCode: 500 } });
    expect(lines.find((l) => l.msg === "request failed")?.err?.message).toBe("internal detail that must not leak");
  });

  it("every 5xx of the envelope names its request, AppErrors included; a 4xx does not", async () => {
    const upstream = await testApp.app.inject({ url: "/probe/upstream" });
    expect(upstream.statusCode).toBe(502);
    expect(JSON.parse(upstream.body)).toMatchObject({ code: 0, msg: "搜索失败", data: null, requestId: upstream.headers["x-request-id"] });
    const missing = await testApp.app.inject({ url: "/api/no-such-route" });
    expect(JSON.parse(missing.body)).not.toHaveProperty("requestId");
  });

  it("an early error's 500 names its request too: in the envelope, and on the small error page", async () => {
    const api = await testApp.app.inject({ url: "/api/probe/early" });
    expect(api.statusCode).toBe(500);
    expect(JSON.parse(api.body)).toEqual({ code: 0, msg: "服务器内部错误", time: expect.any(Number), data: null, requestId: api.headers["x-request-id"] });
    const page = await testApp.app.inject({ url: "/probe/early-page" });
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toContain(`<p>服务器内部错误</p><p><small>请求编号：${page.headers["x-request-id"]}</small></p>`);
    const client = await testApp.app.inject({ url: "/api/probe/early-400" });
    expect(client.headers["x-request-id"]).toMatch(UUID);
    expect(JSON.parse(client.body)).not.toHaveProperty("requestId");
  });

  it("a service line after the answer has ended is the root logger's, without the request's id", async () => {
    const res = await testApp.app.inject({ url: "/probe/later" });
    await new Promise((r) => setTimeout(r, 60));
    const after = log.lines.find((l) => l.msg === "service line after the answer");
    expect(after).toBeDefined();
    expect(after!.reqId).toBeUndefined();
    expect(log.lines.some((l) => l.reqId === res.headers["x-request-id"] && l.msg === "request completed")).toBe(true);
  });

  it("an incoming X-Request-Id is ignored unless a trusted proxy sends it", async () => {
    const given = "0123456789abcdef0123456789abcdef";
    const direct = await testApp.app.inject({ url: "/healthz", headers: { "x-request-id": given } });
    expect(direct.headers["x-request-id"]).not.toBe(given);
    expect(direct.headers["x-request-id"]).toMatch(UUID);

    // TRUST_PROXY=127.0.0.1 and the connection is from 127.0.0.1 (nginx): its id is kept.
    const viaProxy = await trusted.app.inject({ url: "/healthz", headers: { "x-request-id": given } });
    expect(viaProxy.headers["x-request-id"]).toBe(given);
    const other = await trusted.app.inject({ url: "/healthz", remoteAddress: "203.0.113.7", headers: { "x-request-id": given } });
    expect(other.headers["x-request-id"]).not.toBe(given);
    // Even from the proxy, an id that could forge log lines is replaced.
    for (const bad of ["short", "a b c d e f g h", "x".repeat(200), 'abc"defgh}{']) {
      const res = await trusted.app.inject({ url: "/healthz", headers: { "x-request-id": bad } });
      expect(res.headers["x-request-id"]).toMatch(UUID);
    }
  });
});
