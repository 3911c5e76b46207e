/**
 * The kept pages' lane (ADR 0069) over real HTTP: it answers a kept page with the very status,
 * headers and bytes Fastify's path gives it, writes the same access line and counts the request;
 * everything it must not answer goes on to Fastify; a change shows on the very next request.
 * (The lane does not touch the database: one engine is enough.)
 */
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild } from "../../e2e/web-server.js";
import { blockItems } from "../db/schema/index.js";
import { demoMediaFixture } from "../db/seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "../db/seed/index.js";
import { captureLog } from "../testing/log-capture.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { testVisitor } from "../testing/visitors.js";
import { cookieValue, type keptLane } from "./kept-lane.js";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Headers that differ per answer whoever sends it. */
const PER_ANSWER = new Set(["date", "x-request-id"]);

describe("kept pages' lane", () => {
  const log = captureLog("info");
  let t: TestApp;
  let port: number;
  const lane = () => t.app.frontDoor.lane as ReturnType<typeof keptLane>;

  /** One request over HTTP/1.1 (node:http: the bytes as sent, no decoding). */
  const ask = (path: string, headers: Record<string, string> = {}, method = "GET", raw?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, method, headers: { "accept-encoding": "gzip", ...headers }, setHost: raw === undefined }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      if (raw !== undefined) req.setHeader("host", raw);
      req.on("error", reject);
      req.end();
    });
  /** The answer and whether the lane gave it. */
  const viaLane = async (path: string, headers: Record<string, string> = {}, method = "GET") => {
    const before = lane().served;
    const answer = await ask(path, headers, method);
    return { answer, laned: lane().served === before + 1 };
  };
  /** The same request through Fastify alone (the lane out of the door for it). */
  const viaFastify = async (path: string, headers: Record<string, string> = {}, method = "GET") => {
    const door = t.app.frontDoor;
    const kept = door.lane;
    door.lane = undefined;
    try {
      return await ask(path, headers, method);
    } finally {
      door.lane = kept;
    }
  };
  const comparable = (a: Answer) => ({
    status: a.status,
    headers: Object.entries(a.headers).filter(([name]) => !PER_ANSWER.has(name)),
    body: a.body.toString("base64"),
  });

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp("pglite", { web: true, logger: log.logger });
    await seedDemoCatalogue(t.database, { media: demoMediaFixture, suites: 20, singles: 5, plays: 0, writes: t.app.services.writes });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  }, 120_000);

  afterAll(() => t?.close());

  it("answers a kept page with the status, headers and bytes Fastify gives it", async () => {
    const suite = "/site/1.html";
    const visitor = testVisitor(t.app, "returning").cookie;
    const pages: [string, Record<string, string>][] = [
      ["/", {}],
      ["/login", {}],
      ["/sort/manyao?page=1&filter=new", {}],
      ["/no/such/page", {}],
      [suite, { cookie: `other=1; ${visitor}` }],
    ];
    for (const [path, extra] of pages) {
      await ask(path, extra); // kept now
      for (const encoding of ["gzip", "br", "identity"]) {
        const headers = { ...extra, "accept-encoding": encoding };
        const laned = await viaLane(path, headers);
        expect(laned.laned, `${path} ${encoding}`).toBe(true);
        expect(comparable(laned.answer), `${path} ${encoding}`).toEqual(comparable(await viaFastify(path, headers)));
        expect(laned.answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
        const head = await viaLane(path, headers, "HEAD");
        expect(head.laned).toBe(true);
        expect(comparable(head.answer), `HEAD ${path} ${encoding}`).toEqual(comparable(await viaFastify(path, headers, "HEAD")));
      }
      // The client has these bytes: 304, as Fastify says it.
      const etag = (await ask(path, extra)).headers.etag as string | undefined;
      if (etag) {
        const again = await viaLane(path, { ...extra, "if-none-match": etag });
        expect(again.laned).toBe(true);
        expect(again.answer.status).toBe(304);
        expect(comparable(again.answer)).toEqual(comparable(await viaFastify(path, { ...extra, "if-none-match": etag })));
      }
    }
  });

  it("leaves to Fastify whatever it must not answer", async () => {
    await ask("/login");
    const notLaned = async (path: string, headers: Record<string, string> = {}, method = "GET") => {
      const { answer, laned } = await viaLane(path, headers, method);
      expect(laned, `${method} ${path} ${JSON.stringify(headers)}`).toBe(false);
      return answer;
    };
    // Another spelling of an address: Fastify's redirect.
    expect((await notLaned("//login")).status).toBe(301);
    // Other routes and static files, even where a page's pattern would match.
    expect((await notLaned("/api/forntend/index")).status).toBe(200);
    expect((await notLaned("/robots.txt")).status).toBe(200);
    expect((await notLaned("/healthz")).status).toBe(200);
    // Not a page's method.
    expect((await notLaned("/login", {}, "POST")).status).toBe(404);
    // A forwarded Host is Fastify's to weigh (TRUST_PROXY).
    expect((await notLaned("/login", { "x-forwarded-host": "example.com" })).status).toBe(200);
    // A malformed Host: Fastify's 400.
    const before = lane().served;
    expect((await ask("/login", {}, "GET", "bad host!")).status).toBe(400);
    expect(lane().served).toBe(before);
    // Pages rendered per request.
    expect((await notLaned("/user/profile")).status).toBe(200);
    expect((await notLaned("/panda")).status).toBe(200);
  });

  it("answers odd and hostile addresses as Fastify does, never a 5xx", async () => {
    const odd = [
      "/%",
      "/%ZZ",
      "/sort/%E0%A4%A",
      "/sort/manyao?page=-1",
      "/sort/manyao?page=99999999999999",
      "/sort/manyao?page=%00",
      "/site/99999999999.html",
      "/site/0.html",
      "/sutie/1.html%00",
      "/login?%",
      "/login;jsessionid=1",
      "/..%2f..%2fetc%2fpasswd",
      "/%2e%2e/%2e%2e/etc/passwd",
      `/${"x".repeat(4000)}`,
      "/login/",
      "/LOGIN",
      "/api",
      "/assets/../login",
    ];
    const visitor = testVisitor(t.app, "odd").cookie;
    for (const path of odd) {
      const { answer, laned } = await viaLane(path, { cookie: visitor });
      const fastify = await viaFastify(path, { cookie: visitor });
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.status, path).toBe(fastify.status);
      // A page rendered per request differs by its nonce; a kept one must not differ at all.
      if (laned) expect(comparable(answer), path).toEqual(comparable(fastify));
    }
  });

  it("gives a suite page's new visitor a cookie as Fastify's path does, from the same new-visitor counts", async () => {
    const path = "/site/2.html";
    await ask(path, { cookie: testVisitor(t.app, "warm").cookie });
    const setCookie = (a: Answer) => String(a.headers["set-cookie"] ?? "");
    const withoutCookie = (a: Answer) => ({ ...comparable(a), headers: comparable(a).headers.filter(([name]) => name !== "set-cookie") });
    for (const cookie of [undefined, "vid=forged.value", "vid=AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA"]) {
      const headers: Record<string, string> = cookie ? { cookie } : {};
      const { answer, laned } = await viaLane(path, headers);
      expect(laned, cookie).toBe(true);
      const fastify = await viaFastify(path, headers);
      // Each gives a new visitor of its own, in the same form, signed.
      for (const given of [answer, fastify]) {
        expect(setCookie(given), cookie).toMatch(/^vid=[\w-]{22}\.[\w-]{22}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/);
        expect(t.app.services.visitors.verify(cookieValue(setCookie(given).split(";")[0], "vid"))).not.toBeNull();
      }
      expect(setCookie(answer)).not.toBe(setCookie(fastify));
      expect(withoutCookie(answer), cookie).toEqual(withoutCookie(fastify));
    }
    // A proxy names the protocol (Secure or not): Fastify's path decides.
    const proxied = await viaLane(path, { "x-forwarded-proto": "https" });
    expect(proxied.laned).toBe(false);
    expect(setCookie(proxied.answer)).toMatch(/^vid=/);
    const returning = await viaLane(path, { cookie: testVisitor(t.app, "back").cookie });
    expect(returning.laned).toBe(true);
    expect(returning.answer.headers["set-cookie"]).toBeUndefined();
    // This address past its new-visitor limit: both paths send the page and no cookie, so the
    // lane counts in Fastify's counts. (Last in this file's use of new visitors.)
    let left = 0;
    while (t.app.newVisitorAllowedNow!("127.0.0.1")) left++;
    expect(left).toBeLessThan(120);
    const past = await viaLane(path);
    expect(past.laned).toBe(true);
    expect(past.answer.status).toBe(200);
    expect(past.answer.headers["set-cookie"]).toBeUndefined();
    expect((await viaFastify(path)).headers["set-cookie"]).toBeUndefined();
    expect(withoutCookie(past.answer)).toEqual(withoutCookie(await viaFastify(path)));
  });

  it("writes Fastify's access line and counts the request in /metrics", async () => {
    await ask("/login");
    const { answer, laned } = await viaLane("/login?from=lane");
    expect(laned).toBe(true);
    const id = answer.headers["x-request-id"];
    const line = log.lines.find((l) => l.reqId === id);
    expect(line).toMatchObject({ level: 30, msg: "request completed", req: { method: "GET", url: "/login?from=lane", remoteAddress: "127.0.0.1" }, res: { statusCode: 200 } });
    expect(typeof line!.responseTime).toBe("number");
    // Fastify's path writes the same fields.
    const fastify = await viaFastify("/login?from=fastify");
    const other = log.lines.find((l) => l.reqId === fastify.headers["x-request-id"]);
    expect(Object.keys(line!).sort()).toEqual(Object.keys(other!).sort());
    expect(Object.keys(line!.req as object).sort()).toEqual(Object.keys(other!.req as object).sort());
    const count = async () => {
      const text = (await ask("/metrics", { "accept-encoding": "identity" })).body.toString();
      return Number(/djsearch_http_request_duration_seconds_count\{route="\/login",method="GET",status_class="2xx"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await count();
    await viaLane("/login");
    await viaLane("/login");
    expect(await count()).toBe(before + 2);
  });

  it("shows a change on the very next request, then answers again", async () => {
    await ask("/");
    expect((await viaLane("/")).laned).toBe(true);
    // A change through the write service (its event drops the pages showing it).
    const name = `改名${Date.now() % 1000}`;
    const item = (await t.database.db.select().from(blockItems))[0]!;
    await t.app.services.writes.updateBlockItem(item.id, { name });
    const next = await viaLane("/", { "accept-encoding": "identity" });
    expect(next.laned).toBe(false);
    expect(next.answer.body.toString()).toContain(name);
    const after = await viaLane("/", { "accept-encoding": "identity" });
    expect(after.laned).toBe(true);
    expect(after.answer.body.toString()).toContain(name);
  });

  it("steps aside once the app is closing", async () => {
    await ask("/login");
    expect((await viaLane("/login")).laned).toBe(true);
    lane().close();
    expect((await viaLane("/login")).laned).toBe(false);
  });
});

describe("cookieValue", () => {
  it("reads the first value of a cookie as @fastify/cookie does", () => {
    expect(cookieValue(undefined, "vid")).toBeUndefined();
    expect(cookieValue("vid=a.b", "vid")).toBe("a.b");
    expect(cookieValue("x=1; vid=a.b; vid=c.d", "vid")).toBe("a.b");
    expect(cookieValue("xvid=1;  vid = a.b ", "vid")).toBe("a.b");
    expect(cookieValue("vidx=1", "vid")).toBeUndefined();
  });
});
