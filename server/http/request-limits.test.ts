/**
 * Request limits (ADR 0043): every route that reads a body reads at most its deliberate limit
 * (server/http/body-limits.ts) and refuses more with 413 in the envelope; clients that send
 * headers or a body slowly (slowloris) lose their connection within the configured timeouts,
 * while the server keeps answering everyone else.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../testing/admins.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { createTestUser } from "../testing/users.js";
import { BODY_LIMITS } from "./body-limits.js";

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 1_500;
/** Node checks the timeouts every quarter of the shorter one (server-options.ts), plus a loaded machine's delay. */
const SLACK_MS = 1_500;

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp("pglite", { env: { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
  port = Number(new URL(await t.app.listen({ port: 0, host: "127.0.0.1" })).port);
});
afterAll(() => t?.close());

/** The routes whose limit is not the default, and why they differ (body-limits.ts). */
const OWN_LIMITS: Record<string, number> = {
  "POST /api/user/login": BODY_LIMITS.login,
  "POST /api/user/register": BODY_LIMITS.login,
  "POST /api/pandaadmin/login": BODY_LIMITS.login,
  "POST /api/pandaadmin/password": BODY_LIMITS.login,
  "PUT /api/pandaadmin/sources/:code": BODY_LIMITS.sourceConfig,
  "POST /api/pandaadmin/suites": BODY_LIMITS.suiteForm,
  "PUT /api/pandaadmin/suites/:id": BODY_LIMITS.suiteForm,
};

/** A JSON object of exactly `bytes` bytes. */
const jsonOf = (bytes: number) => `{"x":"${"a".repeat(bytes - 8)}"}`;

describe("request body limits", () => {
  it("every route that reads a body refuses one byte past its limit with 413 in the envelope, and reads one at the limit", async () => {
    const concrete = (url: string) => url.replace(/:\w+/g, "1");
    const bodyRoutes = t.app.routeAccess.filter((r) => !["GET", "HEAD"].includes(r.method));
    expect(bodyRoutes.length).toBeGreaterThan(60);
    for (const key of Object.keys(OWN_LIMITS)) expect(bodyRoutes.map((r) => `${r.method} ${r.url}`), key).toContain(key);

    let n = 0;
    const wrong: string[] = [];
    for (const route of bodyRoutes) {
      const headers =
        route.access === "user"
          ? (await createTestUser(t.app)).headers
          : route.access === "admin" || route.access === "super"
            ? (await createTestAdmin(t.database.db, { role: "super" })).headers
            : {};
      const limit = OWN_LIMITS[`${route.method} ${route.url}`] ?? BODY_LIMITS.default;
      const send = (bytes: number) =>
        t.app.inject({
          method: route.method as "POST",
          url: concrete(route.url),
          headers: { ...headers, "content-type": "application/json" },
          payload: jsonOf(bytes),
          // Each from its own address: the login and register limits per address stay out of the way.
          remoteAddress: `10.9.${Math.floor(++n / 250)}.${n % 250}`,
        });
      const over = await send(limit + 1);
      const body = over.json() as { code: number; msg: string };
      if (over.statusCode !== 413 || body.code !== 0 || body.msg !== "上传的内容过大") wrong.push(`${route.method} ${route.url} at ${limit + 1} bytes: ${over.statusCode} ${body.msg}`);
      const at = await send(limit);
      if (at.statusCode === 413 || at.statusCode >= 500) wrong.push(`${route.method} ${route.url} at ${limit} bytes: ${at.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it("a Content-Length past the limit is refused at once, before any of the body is sent", async () => {
    const started = Date.now();
    const answer = await rawExchange(
      `POST /api/forntend/play/start HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`,
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 0, msg: "上传的内容过大" });
    expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS);
  });
});

interface RawAnswer {
  status: number;
  body: string;
  /** When the server closed the connection, from the first byte written. */
  closedAfterMs: number;
  /** Bytes the client managed to write before the server closed. */
  written: number;
}

/**
 * Opens a raw connection, writes `head` at once, then `trickle` one byte every `everyMs` until
 * the server closes the connection (or `giveUpMs`). `rawExchange` sends everything at once.
 */
function trickle(head: string, trickled: string, everyMs: number, giveUpMs = 15_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let written = 0;
    const chunks: Buffer[] = [];
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(head);
      written += head.length;
    });
    let i = 0;
    const drip = setInterval(() => {
      if (!socket.writable || i >= trickled.length) return;
      socket.write(trickled[i++]!);
      written++;
    }, everyMs);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept a slow client for ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(drip);
      clearTimeout(giveUp);
      const text = Buffer.concat(chunks).toString("utf8");
      const at = text.indexOf("\r\n\r\n");
      resolve({ status: Number(text.split(" ")[1] ?? 0), body: at < 0 ? "" : text.slice(at + 4), closedAfterMs: Date.now() - started, written });
    });
  });
}
const rawExchange = (bytes: string) => trickle(bytes, "", 1_000);

/** How long an ordinary request takes while the slow clients hold their sockets. */
async function timedRequest(): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/forntend/gettopnav`);
  await res.arrayBuffer();
  return { status: res.status, ms: Date.now() - started };
}

describe("slow clients", () => {
  it("headers sent a byte at a time (slowloris) are cut at the headers timeout, while others are answered", async () => {
    const slow = Array.from({ length: 20 }, () =>
      trickle("GET /api/forntend/gettopnav HTTP/1.1\r\nHost: localhost\r\n", `X-Slow: ${"a".repeat(500)}\r\n\r\n`, 100),
    );
    // While twenty slow clients hold their sockets, ordinary requests are served at once.
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 5; i++) {
      const other = await timedRequest();
      expect(other.status).toBe(200);
      expect(other.ms).toBeLessThan(HEADERS_TIMEOUT_MS);
    }
    for (const answer of await Promise.all(slow)) {
      // Still sending (each would need 50 s), yet closed within the timeout and Node's check interval.
      expect(answer.written).toBeLessThan(200);
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
      expect(answer.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 0, msg: "请求超时，请重试" });
    }
    expect((await timedRequest()).status).toBe(200);
  });

  it("a body sent a byte at a time is cut at the request timeout, while others are answered", async () => {
    const body = JSON.stringify({ itemId: 1, playbackId: "a".repeat(32), pad: "b".repeat(400) });
    const slow = Array.from({ length: 10 }, () =>
      trickle(
        `POST /api/forntend/play/start HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
        100,
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 5; i++) {
      const other = await timedRequest();
      expect(other.status).toBe(200);
      expect(other.ms).toBeLessThan(REQUEST_TIMEOUT_MS);
    }
    for (const answer of await Promise.all(slow)) {
      expect(answer.written).toBeLessThan(body.length);
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 0, msg: "请求超时，请重试" });
    }
    expect((await timedRequest()).status).toBe(200);
  });
});
