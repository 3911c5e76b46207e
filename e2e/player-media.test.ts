/**
 * The global player with every kind of media and failure: HLS (native and through hls.js),
 * the mp4 video window, a broken url, the qualified play after 30 s of listening (on a
 * controlled clock) and the offer to resume a suite.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../server/db/sql";
import { launchBrowser } from "./browser";
import { type DemoItems, findDemoItems, mediaState } from "./player-helpers";
import { ROOT, startWebServer, watchProblems } from "./web-server";

const SCREENS = path.join(ROOT, "test-results", "screens");
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let demo: DemoItems;
const contexts: BrowserContext[] = [];

async function freshPage(init?: (ctx: BrowserContext) => Promise<unknown>): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
  contexts.push(context);
  await init?.(context);
  const page = await context.newPage();
  return { page, context, problems: await watchProblems(page) };
}

const advancing = async (page: Page) => {
  const a = (await mediaState(page)).time;
  await expect.poll(async () => (await mediaState(page)).time, { timeout: 15_000 }).toBeGreaterThan(a + 0.3);
};

async function openSuite(page: Page, id: number) {
  await page.goto(`${server.url}/sutie/${id}.html`);
  await page.waitForSelector("html[data-hydrated]");
}

const db = () => server.app.deps.database.db;
const playsOf = async (itemId: number) =>
  (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from play_events where item_id = ${itemId}`))[0].n;

beforeAll(async () => {
  server = await startWebServer();
  browser = await launchBrowser();
  demo = await findDemoItems(server.url);
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.close();
});

describe("global player media", () => {
  it("keeps hls.js out of every public page's initial JavaScript, which stays within 250 KB gzip", async () => {
    // What the browser really loads with the page, until it is hydrated: the scripts start
    // after the first frame (finish-document.ts), so the HTML's own tags do not list them.
    const pages = [
      ["home", "/"],
      ["category", demo.longMix.channel.url],
      ["detail", demo.longMix.url],
    ];
    for (const [name, url] of pages) {
      const { page } = await freshPage();
      const scripts = new Set<string>();
      page.on("response", (res) => {
        if (res.request().resourceType() === "script") scripts.add(new URL(res.url()).pathname);
      });
      await page.goto(server.url + url);
      await page.waitForSelector("html[data-hydrated]");
      await page.waitForLoadState("networkidle");
      expect(scripts.size, name).toBeGreaterThan(5);
      expect([...scripts].filter((f) => /hls/i.test(f)), name).toEqual([]);
      const gzipBytes = [...scripts].reduce((sum, f) => sum + gzipSync(readFileSync(path.join(ROOT, "build", "client", f))).length, 0);
      expect(gzipBytes, name).toBeGreaterThan(100 * 1024); // React and the router are among them
      expect(gzipBytes, name).toBeLessThan(250 * 1024);
      await page.close();
    }
  });

  it("plays the HLS item (natively in Chromium)", async () => {
    const { page, problems } = await freshPage();
    await openSuite(page, demo.hls.id);
    await page.getByRole("button", { name: "播放", exact: true }).click();
    await advancing(page);
    expect((await mediaState(page)).src).toContain(".m3u8");
    expect(problems).toEqual([]);
  });

  it("plays the HLS item through hls.js where the browser has no native HLS, loading hls.js only then", async () => {
    const { page, problems } = await freshPage((ctx) =>
      ctx.addInitScript(() => {
        const native = HTMLMediaElement.prototype.canPlayType;
        HTMLMediaElement.prototype.canPlayType = function (type: string) {
          return /mpegurl/i.test(type) ? "" : native.call(this, type);
        };
      }),
    );
    const scripts: string[] = [];
    page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
    await openSuite(page, demo.hls.id);
    expect(scripts.some((u) => u.includes("hls"))).toBe(false);
    await page.getByRole("button", { name: "播放", exact: true }).click();
    await advancing(page);
    expect((await mediaState(page)).src).toMatch(/^blob:/);
    expect(scripts.some((u) => u.includes("hls"))).toBe(true);
    expect(problems).toEqual([]);
  });

  it("opens mp4 items in a video window that can be dragged, minimised and restored", async () => {
    const { page, problems } = await freshPage();
    await page.goto(`${server.url}${demo.video.channel.url}`);
    await page.waitForSelector("html[data-hydrated]");
    const win = page.locator("[data-video-window]");
    expect(await win.isHidden()).toBe(true);
    await page.getByRole("button", { name: `播放 ${demo.video.title}`, exact: true }).click();
    await win.waitFor({ state: "visible" });
    await advancing(page);
    const video = page.locator("[data-player-media]");
    await expect.poll(async () => (await video.boundingBox())?.height ?? 0).toBeGreaterThan(200);
    await page.screenshot({ path: path.join(SCREENS, "player-video-window.png") });

    // Drag by the title bar.
    const head = win.locator("header");
    const start = (await win.boundingBox())!;
    const h = (await head.boundingBox())!;
    await page.mouse.move(h.x + 60, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x - 340, h.y - 200, { steps: 8 });
    await page.mouse.up();
    // The window follows the pointer on a later frame: its place is polled, not read once.
    await expect.poll(async () => (await win.boundingBox())?.x).toBeLessThan(start.x - 300);
    await expect.poll(async () => (await win.boundingBox())?.y).toBeLessThan(start.y - 150);

    await win.getByRole("button", { name: "最小化视频窗口" }).click();
    await expect.poll(async () => (await video.boundingBox())?.height ?? 0).toBeLessThan(2);
    expect((await mediaState(page)).paused).toBe(false);
    await page.screenshot({ path: path.join(SCREENS, "player-video-minimised.png") });
    await win.getByRole("button", { name: "还原视频窗口" }).click();
    await expect.poll(async () => (await video.boundingBox())?.height ?? 0).toBeGreaterThan(200);

    await win.getByRole("button", { name: "全屏" }).click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement?.hasAttribute("data-video-window") ?? false)).toBe(true);
    await win.getByRole("button", { name: "退出全屏" }).click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement === null)).toBe(true);
    expect(problems).toEqual([]);
  });

  it("a broken url shows 媒体地址无效 and the player stays usable", async () => {
    const [broken, good] = demo.loops;
    const original = broken.palyurl;
    await server.app.services.writes.updateItem(Number(broken.id), { playUrl: "/media/demo/audio/no-such-file.mp3" });
    try {
      const { page } = await freshPage();
      await page.goto(`${server.url}${broken.channel.url}`);
      await page.waitForSelector("html[data-hydrated]");
      await page.getByRole("button", { name: `播放 ${broken.title}`, exact: true }).click();
      const bar = page.locator("[data-player-bar]");
      await expect.poll(() => bar.getByRole("alert").innerText(), { timeout: 10_000 }).toMatch(/^(媒体地址无效|播放出错)$/);
      await expect.poll(async () => (await mediaState(page)).paused).toBe(true);
      await page.getByRole("button", { name: `播放 ${good.title}`, exact: true }).click();
      await advancing(page);
      await expect.poll(() => bar.getByRole("alert").count()).toBe(0);
    } finally {
      await server.app.services.writes.updateItem(Number(broken.id), { playUrl: original });
    }
  });

  it("records one qualified play after 30 s of listening; seeking, more listening and a reload add none", async () => {
    const { page, context } = await freshPage((ctx) => ctx.clock.install());
    const item = demo.longMix;
    const before = await playsOf(item.id);
    await openSuite(page, item.id);
    await page.getByRole("button", { name: "播放", exact: true }).click();
    await advancing(page);
    // The server counts the play 30 s after it saw the playback start: its clock moves with the browser's.
    server.clock.advance(20_000);
    await page.clock.runFor(20_000);
    // Skipping through the mix is not listening.
    for (const at of [600, 1800, 3000]) await page.getByTitle("从这里播放").nth(Math.floor(at / 600)).click();
    await advancing(page);
    expect(await playsOf(item.id)).toBe(before);
    server.clock.advance(12_000);
    await page.clock.runFor(12_000);
    await expect.poll(() => playsOf(item.id), { timeout: 10_000 }).toBe(before + 1);
    await page.clock.runFor(60_000);
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await page.getByRole("button", { name: "播放", exact: true }).click();
    await advancing(page);
    await page.clock.runFor(45_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(await playsOf(item.id)).toBe(before + 1);
    // The cookie holds the visitor id and our signature of it.
    const vid = (await context.cookies()).find((c) => c.name === "vid")?.value.split(".")[0];
    const [row] = await queryRows<{ n: number; s: number }>(
      db(),
      sql`select count(*)::int as n, max(seconds_listened)::int as s from play_events where visitor_id = ${vid ?? ""}`,
    );
    expect(row.n).toBe(1);
    expect(row.s).toBeGreaterThanOrEqual(30);
    expect(row.s).toBeLessThan(40);
  });

  it("reopening a suite offers to continue where the listener stopped", async () => {
    const { page } = await freshPage();
    await openSuite(page, demo.longMix.id);
    await page.getByTitle("从这里播放").nth(4).click();
    await advancing(page);
    await page.getByRole("button", { name: "暂停", exact: true }).click();
    const stoppedAt = (await mediaState(page)).time;
    // Something else plays; the mix's page then offers its resume point.
    await openSuite(page, demo.loops[0].id);
    await page.getByRole("button", { name: "播放", exact: true }).click();
    await advancing(page);
    await openSuite(page, demo.longMix.id);
    await expect.poll(() => page.getByText("上次听到").count()).toBe(1);
    await page.getByRole("button", { name: "继续播放" }).click();
    await advancing(page);
    const t = (await mediaState(page)).time;
    expect(t).toBeGreaterThan(stoppedAt - 1);
    expect(t).toBeLessThan(stoppedAt + 10);
  });
});
