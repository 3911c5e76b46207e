/**
 * What a hostile visitor tries at the HTTP level (ADR 0014): requests that never finish
 * arriving, bytes the parser rejects, undecodable URLs, bad Host headers, floods of searches,
 * and media served exactly. Every answer is a 4xx with the envelope (or an error page for a
 * page address), a Chinese message and the usual security headers, and nothing is logged at
 * error level. Page-route cases with the web build are in e2e/hostile-input.test.ts.
 */
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { mkdir, writeFile } from "node:fs/promises";
import net from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../testing/admins.js";
import { captureLog } from "../testing/log-capture.js";
import { createTestUser } from "../testing/users.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { RATE_LIMITS } from "./rate-limits.js";

const REQUEST_TIMEOUT_MS = 800;
const HEADERS_TIMEOUT_MS = 400;

let t: TestApp;
let port: number;
const log = captureLog();
const mix = randomBytes(8 * 1024 * 1024);
const svg = `<svg xmlns="http://www.w3.org/2000/svg">${"<rect/>".repeat(400)}</svg>`;

beforeAll(async () => {
  t = await createTestApp("pglite", {
    logger: log.logger,
    env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) },
  });
  await mkdir(join(t.dataDir, "media"), { recursive: true });
  await writeFile(join(t.dataDir, "media", "mix.mp3"), mix);
  await writeFile(join(t.dataDir, "media", "cover.svg"), svg);
  await mkdir(join(t.dataDir, "uploads"), { recursive: true });
  await writeFile(join(t.dataDir, "uploads", "notes.txt"), "歌单".repeat(2000));
  const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = Number(new URL(url).port);
});

afterAll(async () => {
  await t?.close();
  // None of it is a server error.
  expect(log.errors()).toEqual([]);
});

interface RawAnswer {
  ms: number;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `bytes` on a raw socket (and `more` later, if given); resolves when the server closes it. */
function rawExchange(bytes: string, { more, keepOpenMs = 10_000 }: { more?: () => string; keepOpenMs?: number } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(bytes);
      if (more) setTimeout(() => socket.writable && socket.write(more()), 50);
    });
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", () => {});
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`socket still open after ${keepOpenMs} ms`));
    }, keepOpenMs);
    socket.on("close", () => {
      clearTimeout(giveUp);
      const text = Buffer.concat(chunks).toString("utf8");
      const [head, ...rest] = text.split("\r\n\r\n");
      const [statusLine, ...headerLines] = head.split("\r\n");
      const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ ms: Date.now() - t0, status: Number(statusLine.split(" ")[1] ?? 0), headers, body: rest.join("\r\n\r\n") });
    });
  });
}

/** The headers every answer of ours carries (helmet's and the CSP). */
function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["x-frame-options"]).toBe("SAMEORIGIN");
  expect(headers["strict-transport-security"]).toMatch(/max-age=\d+/);
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["content-security-policy"]).toMatch(/default-src 'none'/);
}

function expectEnvelope(answer: { status: number; headers: Record<string, unknown>; body: string }, status: number, msg: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  expect(JSON.parse(answer.body)).toMatchObject({ code: 0, msg, data: null });
  expectSecurityHeaders(answer.headers);
}

describe("requests that never finish arriving", () => {
  it("a body announced but never sent is answered 408 and closed within the request timeout", async () => {
    const answer = await rawExchange(
      "POST /api/forntend/play HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    );
    expect(answer.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 1500);
    expectEnvelope(answer, 408, "请求超时，请重试");
  });

  it("headers that never end are answered 408 within the headers timeout", async () => {
    const answer = await rawExchange("GET /api/forntend/gettopnav HTTP/1.1\r\nHost: localhost\r\nX-Slow: ", {
      more: () => "a",
    });
    expect(answer.ms).toBeLessThan(HEADERS_TIMEOUT_MS + 1500);
    expectEnvelope(answer, 408, "请求超时，请重试");
  });

  it("a slow but steady download of a large media file is not cut, however long it takes", async () => {
    const started = Date.now();
    const received = await new Promise<Buffer>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: "/media/mix.mp3" }, (res) => {
        expect(res.statusCode).toBe(200);
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => {
          chunks.push(c);
          // About 2 MB/s: the 8 MB take several request timeouts.
          res.pause();
          setTimeout(() => res.resume(), Math.ceil(c.length / 2048));
        });
        res.on("end", () => resolve(Buffer.concat(chunks)));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
    expect(Date.now() - started).toBeGreaterThan(3 * REQUEST_TIMEOUT_MS);
    expect(received.length).toBe(mix.length);
    expect(received.equals(mix)).toBe(true);
  });
});

describe("bytes the parser or the router reject", () => {
  it("an over-long request line or header is 431 with the envelope, not Node's bare answer", async () => {
    const longHeader = await rawExchange(`GET /api/forntend/gettopnav HTTP/1.1\r\nHost: localhost\r\nCookie: ${"a".repeat(20_000)}\r\n\r\n`);
    expectEnvelope(longHeader, 431, "请求头过大");
    const longLine = await rawExchange(`GET /api/${"a".repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expectEnvelope(longLine, 431, "请求头过大");
  });

  it("bytes that are no HTTP request are 400 with the envelope", async () => {
    expectEnvelope(await rawExchange("garbage\r\n\r\n"), 400, "请求参数错误");
  });

  it("an undecodable path is 400 请求地址无效 with the envelope, not Fastify's English error", async () => {
    for (const path of ["/api/forntend/indexsearch%zz", "/api/forntend/getmusicinfo%E0%A4%A?id=1", "/media/%E0%A4%A.mp3"]) {
      const res = await t.app.inject({ url: path });
      expectEnvelope({ status: res.statusCode, headers: res.headers, body: res.body }, 400, "请求地址无效");
      expect(res.body).not.toContain("FST_");
    }
  });

  it("a malformed Host, or none on HTTP/1.1, is 400 请求的主机名无效", async () => {
    for (const host of ["a b", "x:99999", "evil.com/x", "[::1"]) {
      const res = await t.app.inject({ url: "/api/forntend/gettopnav", headers: { host } });
      expectEnvelope({ status: res.statusCode, headers: res.headers, body: res.body }, 400, "请求的主机名无效");
    }
    expectEnvelope(await rawExchange("GET /api/forntend/gettopnav HTTP/1.1\r\nConnection: close\r\n\r\n"), 400, "请求的主机名无效");
    // HTTP/1.0 needs no Host (old health checks); good hosts pass.
    expect((await rawExchange("GET /healthz HTTP/1.0\r\n\r\n")).status).toBe(200);
    for (const host of ["localhost", "dj.example.cn:8080", "127.0.0.1:3000", "[::1]:3000"]) {
      expect((await t.app.inject({ url: "/healthz", headers: { host } })).statusCode, host).toBe(200);
    }
  });
});

describe("search flood", () => {
  it(`answers a person's searches, and 429 with the envelope past ${RATE_LIMITS.search.max} a minute from one IP`, async () => {
    const search = (ip: string) => t.app.inject({ url: "/api/forntend/indexsearch?keyword=dj", remoteAddress: ip });
    for (let i = 0; i < RATE_LIMITS.search.max; i++) expect((await search("192.0.2.44")).statusCode, `#${i + 1}`).toBe(200);
    const over = await search("192.0.2.44");
    expectEnvelope({ status: over.statusCode, headers: over.headers, body: over.body }, 429, "请求过于频繁，请稍后再试");
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect((await search("192.0.2.45")).statusCode).toBe(200);
  });
});

describe("media representations", () => {
  it("are never compressed: one file, one strong ETag, whatever the client accepts", async () => {
    for (const path of ["/media/cover.svg", "/uploads/notes.txt"]) {
      const plain = await t.app.inject({ url: path });
      const asked = await t.app.inject({ url: path, headers: { "accept-encoding": "br, gzip" } });
      expect(plain.statusCode, path).toBe(200);
      expect(asked.headers["content-encoding"], path).toBeUndefined();
      expect(asked.headers.etag).toBe(plain.headers.etag);
      expect(asked.rawPayload.equals(plain.rawPayload)).toBe(true);
    }
  });

  it("serve the satisfiable part of a range request that mixes it with an unsatisfiable one", async () => {
    const res = await t.app.inject({ url: "/media/mix.mp3", headers: { range: `bytes=100-199, ${mix.length + 10}-` } });
    expect(res.statusCode).toBe(206);
    expect(res.headers["content-range"]).toBe(`bytes 100-199/${mix.length}`);
    expect(res.rawPayload.equals(mix.subarray(100, 200))).toBe(true);
  });
});

describe("found by the fuzz of every route (ADR 0043)", () => {
  const envelopeOf = (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => ({ status: res.statusCode, headers: res.headers, body: res.body });

  it("a multipart upload with no, an empty or an over-long boundary is 400, not a 500", async () => {
    const admin = (await createTestAdmin(t.database.db)).headers;
    const member = (await createTestUser(t.app)).headers;
    const uploads: [string, Record<string, string>, string][] = [
      ["/api/pandaadmin/upload/cover", admin, "请上传封面图片"],
      ["/api/pandaadmin/upload/media", admin, ""],
      ["/api/pandaadmin/block/image", admin, ""],
      ["/api/user/upload-avatar", member, ""],
    ];
    for (const [url, headers] of uploads) {
      for (const contentType of ["multipart/form-data", "multipart/form-data; boundary=", `multipart/form-data; boundary=${"b".repeat(300)}`]) {
        const res = await t.app.inject({ method: "POST", url, headers: { ...headers, "content-type": contentType }, payload: "--x\r\n\r\n" });
        expect(res.statusCode, `${url} ${contentType.slice(0, 40)}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 0, msg: expect.stringMatching(/[\u4e00-\u9fff]/), data: null });
      }
    }
  });

  it("a NUL character or a lone surrogate anywhere in an API request is 400 请求内容包含无效字符 and stores nothing", async () => {
    const admin = (await createTestAdmin(t.database.db)).headers;
    const blocksBefore = (await t.app.inject({ url: "/api/pandaadmin/block/index", headers: admin })).json().total;
    const nulName = await t.app.inject({
      method: "POST",
      url: "/api/pandaadmin/block",
      headers: admin,
      payload: { name: "焦点\u0000图", position: "indexfocus", status: true, sort: 0 },
    });
    expectEnvelope(envelopeOf(nulName), 400, "请求内容包含无效字符");
    const nulEmail = await t.app.inject({ method: "POST", url: "/api/user/check-email-exist", payload: { email: "a\u0000@b.cn" } });
    expectEnvelope(envelopeOf(nulEmail), 400, "请求内容包含无效字符");
    // A key the contract does not know is dropped by validation: it never reaches a query.
    const nulKey = await t.app.inject({ method: "POST", url: "/api/user/check-email-exist", payload: { email: "a@b.cn", "x\u0000": 1 } });
    expect(nulKey.statusCode).toBeLessThan(500);
    // A lone surrogate (no UTF-8 for it) was a 500 in a JSON column.
    const loneSurrogate = await t.app.inject({
      method: "PUT",
      url: "/api/pandaadmin/settings",
      headers: { ...admin, "content-type": "application/json" },
      payload: '{"title":"站点","keywords":"\\ud800","description":"","footer":"","partnerText":""}',
    });
    expectEnvelope(envelopeOf(loneSurrogate), 400, "请求内容包含无效字符");
    const nulQuery = await t.app.inject({ url: "/api/pandaadmin/users/index?search=a%00b", headers: admin });
    expectEnvelope(envelopeOf(nulQuery), 400, "请求内容包含无效字符");
    expect((await t.app.inject({ url: "/api/pandaadmin/block/index", headers: admin })).json().total).toBe(blocksBefore);
    // A contract that refuses control characters keeps its own message.
    expect((await t.app.inject({ url: "/api/forntend/indexsearch?keyword=%E5%A4%9C%00" })).json().msg).toBe("搜索关键词包含无效字符");
  });

  it("a bad source configuration is named field by field in Chinese, never in zod's English", async () => {
    const admin = (await createTestAdmin(t.database.db)).headers;
    const res = await t.app.inject({ method: "PUT", url: "/api/pandaadmin/sources/mirror", headers: admin, payload: { x: 1, search: { url: 7 } } });
    expect(res.statusCode).toBe(400);
    const { msg } = res.json() as { msg: string };
    expect(msg).toMatch(/^来源配置无效：/u);
    expect(msg).toMatch(/name：缺少此项/u);
    expect(msg).not.toMatch(/Invalid|expected|received|Unrecognized|✖/);
  });
});
