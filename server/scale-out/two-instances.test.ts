/**
 * Two instances as one site (issue 14, ADR 0039): two real apps built in this process on one
 * PostgreSQL database and one Redis prefix. A write through A's admin API shows in B's kept
 * answers and kept pages on B's very next request; a login on A works on B; the captcha
 * threshold and rate limits count both instances' requests; a captcha loaded from A is checked
 * by B. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { ensureWebBuild } from "../../e2e/web-server.js";
import { eq } from "drizzle-orm";
import { Redis } from "ioredis";
import { SHARED_VIEW_TTL_MS } from "../modules/catalog/view-ledger.js";
import { itemViewDeltas } from "../db/schema/index.js";
import { createTestAdmin } from "../testing/admins.js";
import { solveCaptcha } from "../testing/captcha.js";
import { testRedisUrl } from "../testing/test-redis.js";
import { createTwoInstances, type TwoInstances } from "../testing/two-instances.js";
import { createTestUser } from "../testing/users.js";
import { testVisitor } from "../testing/visitors.js";

const redisUrl = testRedisUrl();
const postgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!redisUrl || !postgres)("two instances on one PostgreSQL and one Redis", () => {
  let site: TwoInstances;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let editor: Record<string, string>;
  let danqu: number;
  let suiteId: number;
  let ip = 0;
  /** Each test its own client address, so per-address counts start at 0. */
  const nextIp = () => `203.0.113.${++ip}`;

  const nav = async (app: FastifyInstance) => ((await app.inject("/api/forntend/gettopnav")).json().data as { label: string }[]).map((n) => n.label);
  const page = async (app: FastifyInstance, url: string) => (await app.inject({ url, headers: { accept: "text/html" } })).body;
  const search = async (app: FastifyInstance, keyword: string) =>
    JSON.stringify((await app.inject(`/api/forntend/indexsearch?keyword=${encodeURIComponent(keyword)}`)).json().data);
  const cacheHits = (app: FastifyInstance, name: string) => app.services.caches.get(name)!.stats().hits;

  beforeAll(async () => {
    ensureWebBuild();
    site = await createTwoInstances(redisUrl!, { web: true });
    ({ app: a } = site.a);
    ({ app: b } = site.b);
    editor = (await createTestAdmin(site.a.database.db, { role: "editor" })).headers;
    const [chuanshao, single] = await a.services.writes.createCategories([
      { name: "DJ串烧", diyname: "chuanshao", modelId: 2, sort: 1 },
      { name: "DJ单曲", diyname: "danqu", sort: 2 },
    ]);
    danqu = single!.id;
    suiteId = await a.services.writes.createItem({ kind: "mix", title: "夜店串烧 雨夜", playUrl: "/media/a.mp3", sourceSite: "local", categoryId: chuanshao!.id });
  });
  afterAll(() => site?.close());

  it("a category rename through A's admin API shows in B's kept answers and kept pages on the very next request", async () => {
    // B keeps the navigation answer and the category's page.
    await nav(b);
    const navHits = cacheHits(b, "navigation");
    expect(await nav(b)).toContain("DJ单曲");
    expect(cacheHits(b, "navigation")).toBe(navHits + 1);
    await page(b, "/sort/danqu");
    expect(await page(b, "/sort/danqu")).toContain("DJ单曲");

    const res = await a.inject({ method: "PUT", url: `/api/pandaadmin/category/${danqu}`, payload: { name: "DJ舞曲单曲" }, headers: editor });
    expect(res.json()).toMatchObject({ code: 1, msg: "保存成功" });

    // No waiting: the edit's response came once B had dropped what changed.
    expect(await nav(b)).toContain("DJ舞曲单曲");
    const html = await page(b, "/sort/danqu");
    expect(html).toContain("DJ舞曲单曲");
    expect(html).not.toContain(">DJ单曲<");
  });

  it("a suite edit through A's admin API shows in B's kept search answer and kept suite page on the very next request", async () => {
    expect(await search(b, "雨夜")).toContain("夜店串烧 雨夜");
    const searchHits = cacheHits(b, "search");
    await search(b, "雨夜");
    expect(cacheHits(b, "search")).toBe(searchHits + 1);
    expect(await page(b, `/sutie/${suiteId}.html`)).toContain("夜店串烧 雨夜");
    await page(b, "/login");
    const keptOnB = (key: string) => b.services.caches.get("pages-until-changed")!.peek(key) !== undefined;
    expect(keptOnB("/login")).toBe(true);

    const form = (await a.inject({ url: `/api/pandaadmin/suites/${suiteId}`, headers: editor })).json().data;
    const res = await a.inject({ method: "PUT", url: `/api/pandaadmin/suites/${suiteId}`, payload: { ...form, title: "雨夜 慢摇改版" }, headers: editor });
    expect(res.json()).toMatchObject({ code: 1, msg: "保存成功" });

    expect(await search(b, "雨夜")).toContain("雨夜 慢摇改版");
    const html = await page(b, `/sutie/${suiteId}.html`);
    expect(html).toContain("雨夜 慢摇改版");
    expect(html).not.toContain("夜店串烧 雨夜");
    // B dropped by the event's tags (ADR 0054): the login page shows no suite and stayed kept.
    expect(keptOnB("/login")).toBe(true);
  });

  it("a login on A works on B", async () => {
    const member = await createTestUser(a, { password: "secret123" });
    const login = await a.inject({ method: "POST", url: "/api/user/login", payload: { account: member.username, password: "secret123" } });
    expect(login.json()).toMatchObject({ code: 1 });
    const token = login.json().data.token as string;
    const me = await b.inject({ url: "/api/user/isloging", headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ username: member.username });
  });

  it("the captcha threshold counts failed logins on both; a captcha loaded from A is accepted by B", async () => {
    const member = await createTestUser(a, { password: "secret123" });
    const remoteAddress = nextIp();
    const attempt = (app: FastifyInstance, extra: object = {}, headers: Record<string, string> = {}) =>
      app.inject({ method: "POST", url: "/api/user/login", remoteAddress, headers, payload: { account: member.username, password: "wrong-pass", ...extra } });
    // Five failures, alternating instances: each answer counts the failures of both.
    for (let i = 1; i <= 5; i++) {
      const res = await attempt(i % 2 ? a : b);
      expect(res.json(), `failure ${i}`).toMatchObject({ code: 0, msg: "登录失败", data: { iscaptcha: i } });
    }
    // The sixth, on B, needs the captcha: four failures on B alone would not have asked for it.
    expect((await attempt(b)).json()).toMatchObject({ code: 0, msg: "请输入验证码" });

    const captcha = await solveCaptcha(a, { remoteAddress });
    const ok = await attempt(b, { password: "secret123", captcha: captcha.answer }, captcha.headers);
    expect(ok.json()).toMatchObject({ code: 1, data: { iscaptcha: 0 } });
    // Single use across instances: the same answer on A now fails.
    const again = await attempt(a, { password: "secret123", captcha: captcha.answer }, captcha.headers);
    expect(again.json()).toMatchObject({ code: 0 });
    expect(again.json().msg).not.toBe("登录成功");
  });

  it("a rate limit counts the requests of both instances", async () => {
    // POST /api/user/reset-password: 20 a minute per address; the limit is checked before the body.
    const remoteAddress = nextIp();
    const reset = (app: FastifyInstance) => app.inject({ method: "POST", url: "/api/user/reset-password", remoteAddress, payload: {} });
    for (let i = 1; i <= 20; i++) expect((await reset(i % 2 ? a : b)).statusCode, `request ${i}`).toBe(400);
    const limited = await reset(a);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 0, msg: "请求过于频繁，请稍后再试" });
    expect((await reset(b)).statusCode).toBe(429);
    // Another address is not limited.
    expect((await b.inject({ method: "POST", url: "/api/user/reset-password", remoteAddress: nextIp(), payload: {} })).statusCode).toBe(400);
  });

  it("a view counts once per visitor and day across both instances", async () => {
    const written = async () => {
      await a.services.suites.flushViews();
      await b.services.suites.flushViews();
      const [row] = await site.a.database.db.select().from(itemViewDeltas).where(eq(itemViewDeltas.itemId, suiteId));
      return row?.views ?? 0;
    };
    const before = await written();
    const visitor = testVisitor(a, `visitor-${Date.now()}`);
    for (const app of [a, b, a, b]) {
      const res = await app.inject({ method: "POST", url: "/api/forntend/view", payload: { id: suiteId }, headers: { cookie: visitor.cookie } });
      expect(res.statusCode).toBe(200);
    }
    expect(await written()).toBe(before + 1);
    // Kept in Redis under the prefix, with an expiry (its bound).
    const redis = new Redis(redisUrl!);
    try {
      const [key] = await redis.keys(`${site.prefix}views:*:${suiteId}:${visitor.id}`);
      expect(key).toBeDefined();
      expect(await redis.pttl(key!)).toBeGreaterThan(SHARED_VIEW_TTL_MS - 60_000);
    } finally {
      redis.disconnect();
    }
  });
});
