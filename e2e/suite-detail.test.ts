import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { MusicInfo } from "../contracts/suite";
import { queryRows } from "../server/db/sql";
import { testVisitor } from "../server/testing/visitors";
import { formatCount } from "../web/app/components/suite/format";
import { launchBrowser } from "./browser";
import { ROOT, startWebServer, watchProblems } from "./web-server";

const SCREENS = path.join(ROOT, "test-results", "screens");
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let timed: MusicInfo;

/** The first seeded mix whose file tree carries track start times. */
async function findTimedMix(base: string): Promise<MusicInfo> {
  for (let id = 1; id < 60; id++) {
    const body = await fetch(`${base}/api/forntend/getmusicinfo?id=${id}`).then((r) => r.json());
    if (body.code === 1 && JSON.stringify(body.data.djlist).includes('"start"')) return body.data;
  }
  throw new Error("no seeded mix with track start times");
}

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  server = await startWebServer();
  browser = await launchBrowser();
  timed = await findTimedMix(server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("suite detail page", () => {
  it("is server-rendered with its title, breadcrumb, tree and canonical link before any JavaScript", async () => {
    const res = await fetch(`${server.url}/sutie/${timed.id}.html`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<title>${timed.title} - DJ搜索引擎网</title>`);
    expect(html).toMatch(new RegExp(`rel="canonical" href="https?://[^"/]+/sutie/${timed.id}\\.html"`)); // absolute (PUBLIC_URL)
    expect(html).toContain(`音频文件：<!-- -->${timed.audioFiles}`);
    expect(html).toContain(timed.channel.name);
  });

  it("gives the browser the suite's API answer compressed once (br), with its ETag, and Chromium reads it whole", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/robots.txt`);
    const seen = await page.evaluate(async (id) => {
      const res = await fetch(`/api/forntend/getmusicinfo?id=${id}`);
      const body = await res.json();
      return { encoding: res.headers.get("content-encoding"), etag: res.headers.get("etag"), title: body.data.title, views: body.data.views, time: body.time };
    }, timed.id);
    expect(seen.encoding).toBe("br"); // the same bytes for everyone (SharedAnswer)
    expect(seen.etag).toMatch(/^"/);
    expect(seen.title).toBe(timed.title);
    expect(seen.views).toBeGreaterThan(0);
    expect(seen.time).toBeGreaterThan(1_700_000_000);
    await page.close();
  });

  it("counts exactly one view per page view in Chromium, sent by the hydrated page, and shows the current count", async () => {
    const id = timed.id;
    const url = `${server.url}/sutie/${id}.html`;
    const stored = async () =>
      (
        await queryRows<{ n: number }>(
          server.app.deps.database.db,
          sql`select view_count + coalesce((select views from item_view_deltas where item_id = ${id}), 0) as n from items where id = ${id}`,
        )
      )[0]!.n;
    await server.app.services.suites.flushViews();
    // The page is kept with today's count; then someone else's view makes the count move.
    const kept = await fetch(url).then((r) => r.text());
    const before = await stored();
    expect(kept).toContain(`浏览 <!-- -->${formatCount(before)}<`);
    const other = await server.app.inject({ method: "POST", url: "/api/forntend/view", payload: { id }, headers: { cookie: testVisitor(server.app, "e2e-other").cookie } });
    expect(other.json().data).toMatchObject({ views: before + 1, counted: true });

    const context = await browser.newContext({ locale: "zh-CN" }); // a first visit: no cookie yet
    const page = await context.newPage();
    const beacons: number[] = [];
    page.on("response", (res) => {
      if (res.url().endsWith("/api/forntend/view")) beacons.push(res.status());
    });
    await page.goto(url);
    expect(await page.content()).toContain(timed.title);
    await page.waitForSelector("html[data-hydrated]");
    // The page's answer gave the cookie, the beacon counted it: the page shows the current count.
    await expect.poll(() => page.locator('[data-count="views"]').innerText()).toBe(`浏览 ${formatCount(before + 2)}`);
    expect(beacons).toEqual([200]);
    expect(await stored()).toBe(before + 2); // committed before it was answered
    // The same visitor again today: the page still says the count, nothing more is counted.
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => beacons.length).toBe(2);
    await expect.poll(() => page.locator('[data-count="views"]').innerText()).toBe(`浏览 ${formatCount(before + 2)}`);
    expect(await stored()).toBe(before + 2);
    await context.close();
  });

  it("shows the tree, plays from a track's start time, and asks a guest to log in to favourite", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
    const problems = await watchProblems(page);
    await page.goto(`${server.url}/site/${timed.id}.html`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toContain(timed.title);
    await page.waitForSelector("html[data-hydrated]"); // the buttons work once React has hydrated
    const leaves = page.getByRole("treeitem").filter({ has: page.getByTitle("从这里播放") });
    await expect.poll(() => leaves.count()).toBeGreaterThan(1);
    // The global player bar is hidden on this page.
    await expect.poll(() => page.locator("[data-player-slot]").isHidden()).toBe(true);

    const second = leaves.nth(1).getByTitle("从这里播放");
    const startText = await second.innerText();
    const [m, s] = startText.split(":").map(Number);
    await second.click();
    const media = page.locator("audio, video").first();
    await expect
      .poll(() => media.evaluate((el: HTMLMediaElement) => el.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(m * 60 + s);
    await page.getByRole("button", { name: "暂停" }).click();

    await page.getByRole("button", { name: "收藏" }).click();
    await page.getByRole("dialog").getByRole("tab", { name: "登录" }).waitFor();
    await page.screenshot({ path: path.join(SCREENS, "suite-detail-login.png") });
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await page.screenshot({ path: path.join(SCREENS, "suite-detail.png"), fullPage: true });
    expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
    await page.close();
  });

  it("answers 404 数据不存在 for a missing suite and 页面不存在 for a wrong path shape", async () => {
    const missing = await fetch(`${server.url}/sutie/99999999.html`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("数据不存在");
    for (const bad of ["/sutie/0.html", "/site/12", "/sutie/99999999999.html"]) {
      const res = await fetch(`${server.url}${bad}`);
      expect(res.status, bad).toBe(404);
      expect(await res.text(), bad).toContain("页面不存在");
    }
  });
});
