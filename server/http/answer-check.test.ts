import { gzipSync } from "node:zlib";
import { envelopeSchema, ok } from "@contracts/envelope";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { captureLog } from "../testing/log-capture.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { FOREIGN_JSON_ROUTES } from "./answer-check.js";
import { declaredSchema } from "./encode-answer.js";
import { SharedAnswer, sendShared } from "./shared-answer.js";

/**
 * Routes that answer no JSON of their own on success, each with why; every other route declares a
 * zod response schema for its success status (ADR 0057).
 */
const NOT_JSON: Record<string, string> = {
  "GET /metrics": "Prometheus' text format",
  "GET /api/docs": "the OpenAPI UI: a redirect to its HTML",
  "GET /api/docs/static/index.html": "the OpenAPI UI's HTML",
  "GET /api/docs/static/swagger-initializer.js": "the OpenAPI UI's script",
  "GET /api/docs/static/*": "the OpenAPI UI's files",
  "GET /api/docs/json": "the OpenAPI document, made by @fastify/swagger from the schemas (FOREIGN_JSON_ROUTES)",
  "GET /api/docs/yaml": "the OpenAPI document in YAML",
  "GET /captcha.html": "an SVG image (spec: the captcha's address)",
  "GET /robots.txt": "text",
  "GET /sitemap.xml": "XML",
  "GET /sitemap-pages.xml": "XML",
  "GET /sitemap-items-:n(^\\d{1,6}).xml": "XML",
  "GET /manifest.webmanifest": "the web app manifest (application/manifest+json), the W3C's format, not an API answer (ADR 0066)",
  "GET /api/pandaadmin/export/suites": "a CSV file (text/csv, streamed, ADR 0065)",
  "GET /api/pandaadmin/export/users": "a CSV file (text/csv, streamed, ADR 0065)",
  "GET /api/pandaadmin/export/collected": "a CSV file (text/csv, streamed, ADR 0065)",
  "GET /api/pandaadmin/export/audit": "a CSV file (text/csv, streamed, ADR 0065)",
  "GET /sw.js": "the service worker's script",
  "GET /offline.html": "the offline page's HTML",
  "GET /offline.js": "the offline page's script",
  "GET /api/forntend/indexsearch/stream": "Server-Sent Events; each frame's data is encoded through its schema (stream.ts frameOf)",
  "GET /api/pandaadmin/recorded/:id/body": "a recorded answer's bytes as the site sent them, as an attachment",
  "GET /api/forntend/source-play": "media bytes proxied from a source (errors: the envelope)",
  "GET /api/forntend/source-play/segment": "media bytes proxied from a source (errors: the envelope)",
  "GET /media/*": "files",
  "GET /uploads/*": "files",
};

describe("every JSON answer matches its route's schema (ADR 0057)", () => {
  let t: TestApp;
  const log = captureLog("error");
  const page = envelopeSchema(z.object({ title: z.string(), plays: z.number().int() }));

  beforeAll(async () => {
    t = await createTestApp("pglite", {
      logger: log.logger,
      extend: (app) => {
        const response = { 200: page };
        app.get("/probe/right", { config: { access: "public" }, schema: { response } }, async () => ok({ title: "夜曲", plays: 3 }));
        app.get("/probe/wrong-type", { config: { access: "public" }, schema: { response } }, async (_req, reply) =>
          reply.type("application/json; charset=utf-8").send(JSON.stringify(ok({ title: "夜曲", plays: "3" }))),
        );
        app.get("/probe/extra-key", { config: { access: "public" }, schema: { response } }, async (_req, reply) =>
          reply.type("application/json; charset=utf-8").send(JSON.stringify(ok({ title: "夜曲", plays: 3, secret: 1 }))),
        );
        app.get("/probe/no-schema", { config: { access: "public" } }, async () => ({ title: "夜曲" }));
        app.get("/probe/error-extra", { config: { access: "public" } }, async (_req, reply) =>
          reply.code(400).type("application/json; charset=utf-8").send(JSON.stringify({ code: 0, msg: "坏", time: 1, data: null, stack: "x" })),
        );
        const other = envelopeSchema(z.object({ title: z.string(), plays: z.number().int() }));
        const keptRight = SharedAnswer.json(page, ok({ title: "夜曲".repeat(600), plays: 3 }));
        const keptOther = SharedAnswer.json(other, ok({ title: "夜曲", plays: 3 }));
        app.get("/probe/kept", { config: { access: "public" }, schema: { response } }, async (request, reply) => sendShared(request, reply, keptRight));
        app.get("/probe/kept-other", { config: { access: "public" }, schema: { response } }, async (request, reply) => sendShared(request, reply, keptOther));
        app.get("/probe/kept-gzip-wrong", { config: { access: "public" }, schema: { response } }, async (_req, reply) =>
          reply.type("application/json; charset=utf-8").header("content-encoding", "gzip").send(gzipSync(JSON.stringify(ok({ title: 7, plays: 3 })))),
        );
      },
    });
  });
  afterAll(() => t?.close());

  it("every route that answers JSON declares a zod schema for its success status; the others are listed with why", () => {
    const routes = t.app.checkedRoutes.filter((r) => !r.url.startsWith("/probe/"));
    expect(routes.length).toBeGreaterThan(100);
    const undeclared = routes.filter((r) => !declaredSchema(r.response, 200) && !declaredSchema(r.response, 201)).map((r) => `${r.method} ${r.url}`);
    expect(undeclared.sort()).toEqual(Object.keys(NOT_JSON).sort());
    expect([...FOREIGN_JSON_ROUTES].every((url) => NOT_JSON[`GET ${url}`])).toBe(true);
  });

  it("passes an answer its schema encodes, plain or compressed, and a kept one encoded through the declared schema", async () => {
    expect((await t.app.inject("/probe/right")).statusCode).toBe(200);
    for (const encoding of [undefined, "gzip", "br"]) {
      const res = await t.app.inject({ url: "/probe/kept", headers: encoding ? { "accept-encoding": encoding } : {} });
      expect(res.statusCode, encoding).toBe(200);
      expect(res.headers["content-encoding"]).toBe(encoding);
    }
    expect((await t.app.inject("/api/forntend/nothing-here")).statusCode).toBe(404);
    expect(log.errors()).toEqual([]);
  });

  it("turns an answer that does not match into a 500 whose log names the route and the issue", async () => {
    const cases = {
      "/probe/wrong-type": /GET \/probe\/wrong-type answered 200: does not match its response schema: data\.plays: /,
      "/probe/extra-key": /GET \/probe\/extra-key answered 200: not the bytes its schema encodes .*secret/,
      "/probe/no-schema": /GET \/probe\/no-schema answered 200: JSON without a declared response schema for 200/,
      "/probe/error-extra": /GET \/probe\/error-extra answered 400: does not match its response schema: \(root\): Unrecognized key: "stack"/,
      "/probe/kept-other": /GET \/probe\/kept-other answered 200: a kept answer encoded through another schema than the route declares/,
      "/probe/kept-gzip-wrong": /GET \/probe\/kept-gzip-wrong answered 200: does not match its response schema: data\.title: /,
    };
    for (const [url, message] of Object.entries(cases)) {
      log.lines.length = 0;
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(500);
      expect(res.json()).toMatchObject({ code: 0, msg: expect.any(String), requestId: expect.any(String) });
      expect(log.errors().map((l) => l.err?.message).join("\n"), url).toMatch(message);
    }
  });
});
