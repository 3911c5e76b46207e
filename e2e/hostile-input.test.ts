/**
 * Hostile input against the page routes (the production web build, in process, no browser):
 * odd paths and Host headers answer a proper 4xx page or a redirect, never a 500 or an
 * error-level log line; a loader's unexpected failure is logged with the request id and its
 * stack, while the visitor sees only the page's text; the SSR path issues the same signed,
 * Secure-behind-HTTPS visitor cookie as the API.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoCatalogue } from "../server/db/seed/index";
import { prepareDemoMedia } from "../server/demo-media/prepare-demo-media";
import { captureLog } from "../server/testing/log-capture";
import { createTestApp, type TestApp } from "../server/testing/test-app";
import { ensureWebBuild } from "./web-server";

let t: TestApp;
let port: number;
let suiteId: number;
const log = captureLog();

beforeAll(async () => {
  ensureWebBuild();
  t = await createTestApp("pglite", { web: true, logger: log.logger, env: { TRUST_PROXY: "127.0.0.1" } });
  const media = await prepareDemoMedia(t.dataDir);
  await seedDemoCatalogue(t.database, { media, suites: 6, singles: 2, plays: 0 });
  suiteId = (await t.app.inject({ url: "/api/forntend/getmusicinfo?id=1" })).json().data.id;
  port = Number(new URL(await t.app.listen({ port: 0, host: "127.0.0.1" })).port);
});

afterAll(async () => {
  await t?.close();
});

/** The request path byte for byte (inject and fetch would normalise it). */
function rawGet(path: string, headers = "Host: localhost\r\n"): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const at = text.indexOf("\r\n\r\n");
      resolve({ status: Number(text.split(" ")[1]), head: text.slice(0, at), body: text.slice(at + 4) });
    });
  });
}

const headerOf = (head: string, name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1]?.trim();

function expectPageHeaders(head: string) {
  expect(headerOf(head, "x-content-type-options")).toBe("nosniff");
  expect(headerOf(head, "x-frame-options")).toBe("SAMEORIGIN");
  expect(headerOf(head, "content-security-policy")).toBeTruthy();
}

describe("odd page paths and Host headers", () => {
  it("a path beginning with // is redirected to its one-slash address, never a 500", async () => {
    const errorsBefore = log.errors().length;
    for (const [path, to] of [
      ["//", "/"],
      ["///", "/"],
      ["//:99999/", "/:99999/"],
      [`//sutie/${suiteId}.html?from=share`, `/sutie/${suiteId}.html?from=share`],
      ["/\\evil.example/", "/evil.example/"],
      ["//evil.example/%2F..", "/evil.example/%2F.."],
    ]) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(301);
      expect(headerOf(res.head, "location"), path).toBe(to);
      expectPageHeaders(res.head);
    }
    // Where they lead is a page (or the 404 page), as for any address.
    expect((await rawGet("/:99999/")).status).toBe(404);
    expect(log.errors().slice(errorsBefore)).toEqual([]);
  });

  it("a malformed Host on a page is the 400 error page with the usual headers", async () => {
    const errorsBefore = log.errors().length;
    for (const host of ["a b", "x:99999", "evil.example/x"]) {
      const res = await rawGet("/", `Host: ${host}\r\n`);
      expect(res.status, host).toBe(400);
      expect(headerOf(res.head, "content-type")).toMatch(/^text\/html/);
      expect(res.body).toContain('<html lang="zh-CN">');
      expect(res.body).toContain("请求的主机名无效");
      expect(res.body).toContain('href="/"');
      expectPageHeaders(res.head);
    }
    expect(log.errors().slice(errorsBefore)).toEqual([]);
  });

  it("an undecodable or over-long page address is a 4xx error page, not Fastify's or Node's English JSON", async () => {
    const bad = await rawGet("/sutie/%E0%A4%A.html");
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("请求地址无效");
    expect(bad.body).not.toContain("FST_");
    expectPageHeaders(bad.head);
    const long = await rawGet(`/sort/${"a".repeat(20_000)}`);
    expect(long.status).toBe(431);
    expect(long.body).toContain("请求头过大");
    expectPageHeaders(long.head);
    expect(log.errors()).toEqual([]);
  });
});

describe("line and paragraph separators in an address", () => {
  it("a path beginning with U+2028 or U+2029 is the 404 page, logged below error level", async () => {
    const errorsBefore = log.errors().length;
    for (const path of ["/%E2%80%A8", "/%E2%80%A8x/y", "/%E2%80%A9.html", "/sort/%E2%80%A8"]) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toContain('<html lang="zh-CN">');
      expectPageHeaders(res.head);
    }
    expect(log.errors().slice(errorsBefore)).toEqual([]);
  });
});

describe("visitor cookie on pages", () => {
  it("is issued signed by the suite page, Secure behind HTTPS, and read the same way by the API", async () => {
    const page = await t.app.inject({ url: `/sutie/${suiteId}.html`, headers: { "x-forwarded-proto": "https" }, remoteAddress: "127.0.0.1" });
    expect(page.statusCode).toBe(200);
    const setCookie = String(page.headers["set-cookie"]);
    expect(setCookie).toMatch(/^vid=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
    const cookie = setCookie.split(";")[0];
    const api = await t.app.inject({ url: `/api/forntend/getmusicinfo?id=${suiteId}`, headers: { cookie } });
    expect(api.headers["set-cookie"]).toBeUndefined();
    // Plain HTTP: no Secure. A forged id is replaced.
    const plain = await t.app.inject({ url: `/sutie/${suiteId}.html`, headers: { cookie: "vid=chosen_by_the_client_1234" } });
    expect(String(plain.headers["set-cookie"])).toMatch(/^vid=[^;]+\.[^;]+; .*SameSite=Lax$/);
  });
});

/** Request ids are UUIDs unless a trusted proxy sent one (ADR 0044). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("a loader's unexpected failure", () => {
  it("is logged at error level with the request id and the stack; the page says only 服务器错误", async () => {
    const services = t.app.services;
    const original = { ...services.suites };
    // Both ways the suite is read: a kept page's (current), then the per-request render's loader.
    services.suites.current = services.suites.musicInfo = async () => {
      throw new Error("connection to database lost: secret-internal-detail");
    };
    try {
      const res = await t.app.inject({ url: `/sutie/${suiteId}.html` });
      expect(res.statusCode).toBe(500);
      expect(res.body).toContain("服务器错误");
      expect(res.body).not.toContain("secret-internal-detail");
      const [line] = log.errors().filter((l) => l.err?.message?.includes("secret-internal-detail"));
      expect(line).toBeDefined();
      // The id the answer names (header and page, ADR 0044) is the log line's.
      expect(line.reqId).toMatch(UUID);
      expect(res.headers["x-request-id"]).toBe(line.reqId);
      expect(res.body).toContain(`请求编号：${line.reqId}`);
      expect(line.err?.stack).toMatch(/connection to database lost[\s\S]*\n\s+at /);
      // The request's own log lines carry the same id.
      expect(log.lines.some((l) => l.reqId === line.reqId && (l.req as { url?: string } | undefined)?.url === `/sutie/${suiteId}.html`)).toBe(true);
    } finally {
      Object.assign(services.suites, original);
    }
  });

  it("of the layout (no route turns it into a route error) is logged the same way, the page showing the generic text", async () => {
    const services = t.app.services;
    const original = services.navigation.topNav;
    services.navigation.topNav = async () => {
      throw new Error("navigation query failed: another-secret");
    };
    try {
      // A page rendered per request (a kept page runs no loader until a change drops it).
      const res = await t.app.inject({ url: "/user/profile" });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain("another-secret");
      const lines = log.errors().filter((l) => l.err?.message?.includes("another-secret"));
      expect(lines.length).toBeGreaterThan(0);
      expect(lines[0].reqId).toMatch(UUID);
      expect(res.body).toContain(`请求编号：${lines[0].reqId}`);
      expect(lines[0].err?.stack).toContain("navigation query failed");
    } finally {
      services.navigation.topNav = original;
    }
  });
});

