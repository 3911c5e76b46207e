import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "./testing/test-app.js";
import { testEngines } from "./testing/test-db.js";

describe.each(testEngines())("buildApp on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    // Probe routes exercise the shared error handling the real modules rely on.
    testApp = await createTestApp(engine, {
      extend: (a) => {
      const probeBody = z.object({ n: z.number({ error: "n 必须是数字" }) });
      a.post("/api/_probe", { config: { access: "public" }, schema: { body: probeBody, response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));
        a.get("/api/_boom", { config: { access: "public" } }, async () => {
          throw new Error("secret internal detail");
        });
      },
    });
    app = testApp.app;
  });

  afterAll(() => testApp?.close());

  it("answers /healthz with a database round trip", async () => {
    const res = await app.inject("/healthz");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", database: engine });
  });

  it("sends security headers and a CSP made once: no nonce where no page is rendered (a rendered page's: page-cache.test.ts)", async () => {
    const a = await app.inject("/healthz");
    const b = await app.inject("/healthz");
    const csp = String(a.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'; ");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/nonce|unsafe-inline'[^;]*;\s*style/);
    expect(b.headers["content-security-policy"]).toBe(csp);
    expect(a.headers["x-content-type-options"]).toBe("nosniff");
    // API answers are data: a strict policy, without a nonce to make.
    const api = await app.inject("/api/no/such/thing");
    expect(api.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("answers unknown API paths with the 404 envelope", async () => {
    const res = await app.inject("/api/no/such/thing");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 0, msg: "接口不存在" });
  });

  it("turns schema failures into 400 with the rule's Chinese message", async () => {
    const res = await app.inject({ method: "POST", url: "/api/_probe", payload: { n: "x" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 0, msg: "n 必须是数字" });
  });

  it("turns malformed JSON into 400, not 500", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/_probe",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 0, msg: "请求参数错误" });
  });

  it("hides internal errors behind 服务器内部错误", async () => {
    const res = await app.inject("/api/_boom");
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 0, msg: "服务器内部错误" });
    expect(res.body).not.toContain("secret");
  });

  it("publishes an OpenAPI document of the /api routes", async () => {
    const res = await app.inject("/api/docs/json");
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe("DJ搜索引擎网 API");
    expect(Object.keys(doc.paths)).toContain("/api/_probe");
    expect(doc.paths["/healthz"]).toBeUndefined();
  });
});
