/**
 * The back office's dashboard in Chromium (ADR 0032): the four cards show the seeded counts,
 * the 30-day chart draws, and the chart library reaches the dashboard only, never the home page.
 */
import { mkdirSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloads, loginRecords } from "../server/db/schema/index";
import { playsRepo } from "../server/modules/plays/repo";
import { queryRows } from "../server/db/sql";
import { todayAndYesterday } from "../server/modules/dashboard/china-days";
import { createTestAdmin } from "../server/testing/admins";
import { createTestUser } from "../server/testing/users";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-adm-dash";
/** Marks only ECharts' (and its renderer zrender's) code carries. */
const CHART_LIBRARY = /echarts|zrender/i;

let server: Awaited<ReturnType<typeof startWebServer>>;
let app: FastifyInstance;
let browser: Browser;
let adminToken: string;
let suites: number;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer({ suites: 12, singles: 3 });
  app = server.app;
  const db = app.deps.database.db;
  const admin = await createTestAdmin(db, { role: "editor", username: "dash-editor" });
  adminToken = admin.token;
  [{ n: suites }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from items where kind = 'mix'`) as [{ n: number }];

  // A second after each day began (China days), so the test passes at any hour.
  const { today, yesterday } = todayAndYesterday(new Date());
  const at = (day: Date, sec: number) => new Date(day.getTime() + sec * 1000);
  const [item] = await queryRows<{ id: number }>(db, sql`select id from items where kind = 'mix' order by id limit 1`);
  const member = await createTestUser(app);
  let n = 0;
  const play = (when: Date) => ({ itemId: item!.id, visitorId: "v", userId: null, playbackId: `e2e-dash-${++n}`, playedAt: when, secondsListened: 90 });
  // Through the plays' repository, as the play route records them: each play and its day's count together (ADR 0059).
  const plays = playsRepo(db);
  for (const when of [1, 2, 3, 4].map((s) => at(today, s)).concat([1, 2].map((s) => at(yesterday, s)))) await plays.insertOnce(play(when));
  await db.insert(downloads).values([
    { userId: member.id, itemId: item!.id, createdAt: at(today, 5) },
    { userId: member.id, itemId: item!.id, createdAt: at(yesterday, 5) },
    { userId: member.id, itemId: item!.id, createdAt: at(yesterday, 6) },
    { userId: member.id, itemId: item!.id, createdAt: at(yesterday, 7) },
  ]);
  await db.insert(loginRecords).values({ adminId: admin.id, ip: "203.0.113.9", location: "广东省广州市", createdAt: at(today, 9) });
  // Two searches through the real route, written by the counter buffer.
  for (const keyword of ["串烧", "DJ"]) {
    expect((await fetch(`${server.url}/api/forntend/indexsearch?keyword=${encodeURIComponent(keyword)}`)).status).toBe(200);
  }
  await app.services.counters.flush();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the admin dashboard /panda/", () => {
  it("shows the four cards with the seeded numbers and draws the 30-day chart", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: "zh-CN" });
    await context.addInitScript((t) => localStorage.setItem("admin_token", t), adminToken);
    const page = await context.newPage();
    const problems = await watchProblems(page);
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto(`${server.url}/panda/`);
    await hydrated(page);
    const cards = page.getByTestId("dashboard-stat");
    await cards.first().waitFor();
    expect(await cards.count()).toBe(4);
    const text = async (i: number) => (await cards.nth(i).innerText()).replace(/\s+/g, " ");
    // The seed's suites and one member; plays 4 today (2 yesterday); downloads 1 today (3 yesterday).
    expect(await text(0)).toContain(`套曲总数 ${suites}`);
    expect(await text(1)).toMatch(/^用户总数 1 今日注册 1/);
    expect(await text(2)).toBe("今日播放 4 较昨日 +2 (+100%) 昨日 2");
    expect(await text(3)).toBe("今日下载 1 较昨日 -2 (-67%) 昨日 3");

    // The chart: ECharts draws SVG with the three lines' legend.
    const chart = page.getByTestId("dashboard-chart");
    await chart.locator("svg").first().waitFor();
    // ECharts creates its <svg> at once and draws into it on a later frame.
    const legend = () => chart.locator("svg text").evaluateAll((els) => els.map((e) => e.textContent));
    await expect.poll(legend).toEqual(expect.arrayContaining(["播放", "注册", "搜索"]));
    await expect.poll(() => chart.locator("svg path").count()).toBeGreaterThan(3);

    // System facts, and the login just recorded.
    const system = (await page.getByTestId("dashboard-system").innerText()).replace(/\s+/g, " ");
    expect(system).toContain(`Node.js ${process.version}`);
    expect(system).toContain("PGlite (内嵌)");
    expect(await page.getByTestId("dashboard-logins").innerText()).toContain("广东省广州市");
    expect(scripts.some((u) => /TrendChart/.test(u))).toBe(true);
    // The caches of this instance (ADR 0054), the dashboard's own among them.
    const caches = page.getByTestId("dashboard-caches");
    expect(await caches.innerText()).toContain("事件丢弃");
    expect(await caches.locator("tbody tr").filter({ hasText: "dashboard-series" }).count()).toBe(1);

    await page.screenshot({ path: `${SHOTS}/dashboard.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("refreshes itself: a new play shows after the next reading", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
    await context.addInitScript((t) => localStorage.setItem("admin_token", t), adminToken);
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${server.url}/panda/`);
    await hydrated(page);
    const plays = page.getByTestId("dashboard-stat").nth(2);
    await plays.getByText("今日播放").waitFor();
    const [item] = await queryRows<{ id: number }>(app.deps.database.db, sql`select id from items where kind = 'mix' order by id limit 1`);
    await playsRepo(app.deps.database.db).insertOnce({ itemId: item!.id, visitorId: "w", userId: null, playbackId: "e2e-dash-live", playedAt: new Date(), secondsListened: 60 });
    // The server keeps its counts 10 s: move its clock and the page's past both.
    server.clock.advance(11_000);
    await page.clock.runFor(31_000);
    await expect.poll(async () => (await plays.innerText()).replace(/\s+/g, " "), { timeout: 10_000 }).toContain("今日播放 5");
    await context.close();
  });

  it("never sends the chart library to the home page", async () => {
    const context = await browser.newContext({ locale: "zh-CN" });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto(`${server.url}/`);
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    expect(scripts.length).toBeGreaterThan(3);
    for (const url of scripts) {
      const body = await (await fetch(url)).text();
      expect(CHART_LIBRARY.test(body), url).toBe(false);
    }
    await context.close();
  });
});
