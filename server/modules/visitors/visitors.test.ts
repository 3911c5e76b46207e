import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSettings } from "../../db/schema/index.js";
import { RATE_LIMITS } from "../../http/rate-limits.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { chartFixtures } from "../charts/test-fixtures.js";
import { VISITOR_SECRET_KEY } from "./secret.js";
import { visitorService } from "./service.js";
import { visitorCookies } from "./visitor-cookie.js";

describe("visitor cookies", () => {
  const cookies = visitorCookies(Buffer.alloc(32, 7));

  it("issue a random id with a signed, HttpOnly, year-long cookie; Secure over HTTPS", () => {
    const a = cookies.issue(false);
    const b = cookies.issue(true);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(b.id).not.toBe(a.id);
    expect(a.setCookie).toBe(`vid=${cookies.value(a.id)}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax`);
    expect(b.setCookie).toMatch(/; SameSite=Lax; Secure$/);
    expect(cookies.verify(cookies.value(a.id))).toBe(a.id);
  });

  it("sign with HMAC-SHA256, byte for byte what createHmac makes (cookies issued before stay valid)", () => {
    for (const secret of [Buffer.alloc(32, 7), Buffer.alloc(64, 1), Buffer.alloc(100, 9), Buffer.alloc(0)]) {
      const id = "AbCdEfGhIjKlMnOpQrStUv";
      const expected = createHmac("sha256", secret).update(id).digest().subarray(0, 16).toString("base64url");
      expect(visitorCookies(secret).value(id)).toBe(`${id}.${expected}`);
    }
  });

  it("count a missing, malformed, unsigned, forged or foreign value as no id", () => {
    const { id } = cookies.issue(false);
    const signed = cookies.value(id);
    const [, signature] = signed.split(".");
    const other = visitorCookies(Buffer.alloc(32, 8));
    for (const value of [
      undefined,
      "",
      id, // the old, unsigned cookie
      "abcdefghijklmnop_123",
      `${id}.`,
      `${id}.${"A".repeat(22)}`,
      `${"B".repeat(22)}.${signature}`, // another id under this id's signature
      `${signed}x`,
      `<script>.${signature}`,
      other.value(id), // signed with another installation's secret
    ]) {
      expect(cookies.verify(value), String(value)).toBeNull();
    }
  });
});

describe.each(testEngines())("visitors on %s", (engine) => {
  let t: TestApp;
  let itemId: number;

  beforeAll(async () => {
    t = await createTestApp(engine);
    itemId = await chartFixtures(t.database.db).item("local", "mix", "访客测试串烧");
  });
  afterAll(() => t?.close());

  /** A visit: the suite's answer (a new visitor's cookie), then the view beacon with the cookie it has (ADR 0053). */
  const views = async (query: { cookie?: string; ip: string; headers?: Record<string, string> }) => {
    const res = await t.app.inject({
      url: `/api/forntend/getmusicinfo?id=${itemId}`,
      headers: { ...(query.cookie ? { cookie: query.cookie } : {}), ...query.headers },
      remoteAddress: query.ip,
    });
    expect(res.statusCode).toBe(200);
    const setCookie = res.headers["set-cookie"] as string | undefined;
    const cookie = query.cookie ?? setCookie?.split(";")[0];
    const beacon = await t.app.inject({
      method: "POST",
      url: "/api/forntend/view",
      payload: { id: itemId },
      headers: { ...(cookie ? { cookie } : {}), ...query.headers },
      remoteAddress: query.ip,
    });
    // Without a cookie: 403, nothing counted, the count still said.
    expect(beacon.statusCode).toBe(cookie ? 200 : 403);
    return { views: beacon.json().data.views as number, setCookie };
  };

  it("sign with one secret per database, made once and shared by every instance on it", async () => {
    const [row] = await t.database.db.select().from(appSettings).where(eq(appSettings.key, VISITOR_SECRET_KEY));
    expect(typeof row.value).toBe("string");
    // A second instance on the same database: the same secret, so the first one's cookies hold.
    const second = visitorService(t.database.db);
    await second.load();
    const { id, setCookie } = t.app.services.visitors.issue(false);
    expect(second.verify(setCookie.split(";")[0].slice("vid=".length))).toBe(id);
    const [again] = await t.database.db.select().from(appSettings).where(eq(appSettings.key, VISITOR_SECRET_KEY));
    expect(again.value).toBe(row.value);
  });

  it("count 500 cookie-less views from one IP no more than its new-visitor limit, serving every one", async () => {
    const { views: before } = await views({ ip: "198.51.100.1" });
    let last = before;
    let cookies = 0;
    for (let i = 0; i < 500; i++) {
      const seen = await views({ ip: "203.0.113.7" });
      last = seen.views;
      if (seen.setCookie) cookies++;
    }
    expect(cookies).toBe(RATE_LIMITS.newVisitors.max);
    expect(last - before).toBe(RATE_LIMITS.newVisitors.max);
    // Past the limit nothing is counted and no cookie goes out; another address still counts.
    expect((await views({ ip: "203.0.113.7" })).setCookie).toBeUndefined();
    expect((await views({ ip: "198.51.100.2" })).views).toBe(last + 1);
  });

  it("keep a returning visitor's id, and count an IPv6 subscriber's /64 as one address", async () => {
    const first = await views({ ip: "2001:db8:1:2::1" });
    const cookie = String(first.setCookie).split(";")[0];
    const again = await views({ ip: "2001:db8:1:2::1", cookie });
    expect(again.setCookie).toBeUndefined();
    expect(again.views).toBe(first.views);
    for (let i = 0; i < RATE_LIMITS.newVisitors.max; i++) await views({ ip: `2001:db8:1:2::${(i + 2).toString(16)}` });
    expect((await views({ ip: "2001:db8:1:2:ffff::9" })).setCookie).toBeUndefined();
  });
});

describe("visitor cookie behind a proxy", () => {
  let t: TestApp;
  let itemId: number;
  beforeAll(async () => {
    t = await createTestApp("pglite", { env: { TRUST_PROXY: "127.0.0.1" } });
    itemId = await chartFixtures(t.database.db).item("local", "mix", "代理测试串烧");
  });
  afterAll(() => t?.close());

  it("is Secure when the request came over HTTPS (X-Forwarded-Proto from a trusted proxy), else not", async () => {
    const get = (headers: Record<string, string>, remoteAddress: string) =>
      t.app.inject({ url: `/api/forntend/getmusicinfo?id=${itemId}`, headers, remoteAddress });
    expect(String((await get({ "x-forwarded-proto": "https" }, "127.0.0.1")).headers["set-cookie"])).toMatch(/; Secure$/);
    expect(String((await get({}, "127.0.0.1")).headers["set-cookie"])).not.toMatch(/Secure/);
    // An untrusted client cannot claim HTTPS.
    expect(String((await get({ "x-forwarded-proto": "https" }, "192.0.2.9")).headers["set-cookie"])).not.toMatch(/Secure/);
  });
});
