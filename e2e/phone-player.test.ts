/**
 * The player on a phone (390×844, touch) in Debian's Chromium against the real app: the mini
 * bar wholly on screen and seeking by a tap on its seek bar, the full-screen sheet (drag-seek,
 * tracklist, speed, volume, Back), the playlist drawer, and the sleep timer (ADR 0063).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launchBrowser } from "./browser";
import { type DemoItems, findDemoItems, mediaState } from "./player-helpers";
import { ROOT, startWebServer, watchProblems } from "./web-server";

const SCREENS = path.join(ROOT, "test-results", "screens");
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, locale: "zh-CN" };
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let demo: DemoItems;
let context: BrowserContext;
let page: Page;
let problems: string[];

const mini = () => page.locator("[data-mini-player]");
const sheet = () => page.getByRole("dialog", { name: "播放器" });
const shot = (name: string, p: Page = page) => p.screenshot({ path: path.join(SCREENS, `${name}.png`) });

/** The element's box lies wholly inside the 390×844 screen. */
async function wholyOnScreen(target: Locator) {
  const box = (await target.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390.5);
  expect(box.y + box.height).toBeLessThanOrEqual(844.5);
  return box;
}

/** The x of `seconds` on a seek bar (its track spans the bar's inner width). */
async function xOf(seek: Locator, seconds: number, duration: number) {
  const track = (await seek.locator("> div").first().boundingBox())!;
  return { x: track.x + (track.width * seconds) / duration, y: track.y + track.height / 2 };
}

const nearThirtyMinutes = async () =>
  expect.poll(async () => (await mediaState(page)).time, { timeout: 10_000 }).toSatisfy((t: number) => t > 1795 && t < 1812);

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  server = await startWebServer();
  browser = await launchBrowser();
  demo = await findDemoItems(server.url);
  context = await browser.newContext(PHONE);
  page = await context.newPage();
  problems = await watchProblems(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe("phone player (390×844)", () => {
  it("the mini bar is wholly on screen, and a tap on its thin seek bar goes to 30:00 of the long mix", async () => {
    // Started from the suite page, so the entry has its tracklist; then back to its category.
    await page.goto(`${server.url}${demo.longMix.url}`);
    await hydrated(page);
    await page.getByRole("button", { name: "播放", exact: true }).tap();
    await expect.poll(async () => (await mediaState(page)).paused).toBe(false);
    await page.getByRole("navigation", { name: "面包屑" }).getByRole("link", { name: demo.longMix.channel.name }).tap();
    await page.waitForURL(`**${demo.longMix.channel.url}`);
    await expect.poll(() => mini().innerText()).toContain(demo.longMix.title);
    await wholyOnScreen(mini());
    for (const name of ["播放进度", "暂停", "下一首"]) await wholyOnScreen(mini().getByRole(name === "播放进度" ? "slider" : "button", { name, exact: true }));
    // The desktop bar (and its playlist button that sat below the screen) is not drawn on phones.
    expect(await page.locator("[data-player-bar]").count()).toBe(0);
    await expect.poll(() => page.locator("main").evaluate((m) => getComputedStyle(m).paddingBottom)).toBe("88px");

    const duration = (await mediaState(page)).duration;
    expect(duration).toBeGreaterThan(3900);
    const seek = mini().locator("[data-seek=thin]");
    const at = await xOf(seek, 1800, duration);
    await page.touchscreen.tap(at.x, at.y);
    await nearThirtyMinutes();
    expect((await mediaState(page)).paused).toBe(false);
    // A tap on the seek bar seeks; it does not open the sheet.
    expect(await sheet().count()).toBe(0);
    await shot("phone-mini-bar");
  });

  it("a tap on the bar opens the sheet; dragging its seek bar goes to 30:00; tracks, speed and volume work; Back closes it", async () => {
    const duration = (await mediaState(page)).duration;
    // The bar itself (its left edge, beside the cover), not one of its buttons.
    const box = (await mini().boundingBox())!;
    await page.touchscreen.tap(box.x + 4, box.y + box.height / 2);
    await sheet().waitFor();
    await wholyOnScreen(sheet());
    // The page under it is out of reach (Tab, screen readers) while it is open.
    await expect.poll(() => page.locator("main").evaluate((m) => m.closest("[inert]") !== null)).toBe(true);
    await expect.poll(() => sheet().getByText(demo.longMix.title).count()).toBeGreaterThan(0);

    // Drag from the start to 30:00: the bubble shows the target while dragging, the seek comes on release.
    const seek = sheet().locator("[data-seek=large]");
    const from = await xOf(seek, 60, duration);
    const to = await xOf(seek, 1800, duration);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(from.x + ((to.x - from.x) * i) / 8, to.y);
    await expect.poll(() => seek.locator("[aria-hidden=true]").last().innerText()).toMatch(/^(29:5\d|30:0\d)$/);
    await page.mouse.up();
    await nearThirtyMinutes();
    await shot("phone-sheet");

    // The tracklist: which track plays, and a tap starts the third one.
    const tracks = sheet().getByRole("region", { name: "曲目列表" });
    await expect.poll(() => tracks.getByRole("heading").innerText()).toMatch(/^正在播放 第 \d+ \/ \d+ 首$/);
    const third = tracks.getByRole("listitem").nth(2);
    const [m, s] = (await third.locator("span").first().innerText()).split(":").map(Number);
    await third.getByRole("button").tap();
    await expect.poll(async () => (await mediaState(page)).time, { timeout: 10_000 }).toSatisfy((t: number) => t >= m * 60 + s && t < m * 60 + s + 10);
    await expect.poll(() => tracks.getByRole("heading").innerText()).toMatch(/^正在播放 第 3 \/ \d+ 首$/);

    // Speed, and the volume (Chromium lets a page set it; iOS would not show it).
    await sheet().getByRole("combobox", { name: "播放速度" }).selectOption("1.5");
    await expect.poll(() => page.evaluate(() => (document.querySelector("[data-player-media]") as HTMLMediaElement).playbackRate)).toBe(1.5);
    await sheet().getByRole("combobox", { name: "播放速度" }).selectOption("1");
    const volume = sheet().getByRole("slider", { name: "音量" });
    await wholyOnScreen(volume);
    await volume.fill("40");
    await expect.poll(async () => (await mediaState(page)).volume).toBeCloseTo(0.4, 2);

    // Back closes the sheet and stays on the page, still playing.
    const url = page.url();
    await page.evaluate(() => history.back());
    await expect.poll(() => sheet().count()).toBe(0);
    expect(page.url()).toBe(url);
    await expect.poll(() => page.locator("main").evaluate((m) => m.closest("[inert]") !== null)).toBe(false);
    expect((await mediaState(page)).paused).toBe(false);
    // Its own button closes it too: opening and closing does not pile up history entries.
    const length = await page.evaluate(() => history.length);
    await mini().getByRole("button", { name: `展开播放器：${demo.longMix.title}` }).tap();
    await sheet().waitFor();
    await sheet().getByRole("button", { name: "收起播放器" }).tap();
    await expect.poll(() => sheet().count()).toBe(0);
    await expect.poll(() => page.evaluate(() => !!history.state?.playerSheet)).toBe(false);
    expect(await page.evaluate(() => history.length)).toBe(length);
  });

  it("the playlist is wholly on screen and reorders, removes and clears", async () => {
    const [a, b] = demo.loops;
    for (const it of [a, b]) {
      await page.getByRole("button", { name: `播放 ${it.title}`, exact: true }).tap();
      await expect.poll(() => mini().innerText()).toContain(it.title);
    }
    await mini().getByRole("button", { name: `展开播放器：${b.title}` }).tap();
    await sheet().getByRole("button", { name: "播放列表", exact: true }).tap();
    const queue = page.getByRole("dialog", { name: "播放列表" });
    await queue.waitFor();
    await wholyOnScreen(queue);
    const names = () => queue.getByRole("listitem").locator("button span").allInnerTexts();
    await expect.poll(names).toEqual([demo.longMix.title, a.title, b.title]);
    await shot("phone-queue");
    await queue.getByRole("button", { name: `下移 ${demo.longMix.title}` }).tap();
    await expect.poll(names).toEqual([a.title, demo.longMix.title, b.title]);
    await queue.getByRole("button", { name: `上移 ${b.title}` }).tap();
    await expect.poll(names).toEqual([a.title, b.title, demo.longMix.title]);
    // The entry playing (b) is still the one playing.
    await expect.poll(() => queue.locator('[aria-current="true"]').innerText()).toContain(b.title);
    await queue.getByRole("button", { name: `移除 ${a.title}` }).tap();
    await expect.poll(names).toEqual([b.title, demo.longMix.title]);
    await queue.getByRole("button", { name: "清空" }).tap();
    await expect.poll(() => page.locator("[data-player-slot]").innerText()).toContain("暂无播放内容");
    await expect.poll(() => sheet().count()).toBe(0);
    expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  });
});

describe("sleep timer", () => {
  it("15 分钟 pauses playback when the time is up; 播完本首 stops at the end of the entry instead of going on", async () => {
    const ctx = await browser.newContext(PHONE);
    await ctx.clock.install();
    const p = await ctx.newPage();
    try {
      const [a, b] = demo.loops;
      await p.goto(`${server.url}${demo.longMix.channel.url}`);
      await hydrated(p);
      await p.getByRole("button", { name: `播放 ${a.title}`, exact: true }).tap();
      await p.getByRole("button", { name: `播放 ${b.title}`, exact: true }).tap();
      await p.locator("[data-mini-player]").getByRole("button", { name: `展开播放器：${b.title}` }).tap();
      const sleep = p.getByRole("dialog", { name: "播放器" }).getByRole("combobox", { name: "定时关闭" });
      await sleep.selectOption("15");
      await expect.poll(() => sleep.getAttribute("data-sleep-left")).toMatch(/^(900|899|898)$/);
      await expect.poll(() => sleep.locator("option:checked").innerText()).toMatch(/^1[45]:\d\d 后停止$/);
      expect((await mediaState(p)).paused).toBe(false);
      await p.clock.fastForward("15:01");
      await expect.poll(async () => (await mediaState(p)).paused).toBe(true);
      await expect.poll(() => sleep.inputValue()).toBe("off");

      // Back to a, two seconds before its end, with 播完本首: it stops there and b does not start.
      await p.getByRole("button", { name: "播放列表", exact: true }).tap();
      await p.locator("[data-queue] li", { hasText: a.title }).getByRole("button").first().tap();
      await p.getByRole("button", { name: "关闭播放列表" }).tap();
      await expect.poll(async () => (await mediaState(p)).paused).toBe(false);
      await sleep.selectOption("item");
      const d = (await mediaState(p)).duration;
      await p.evaluate((t) => ((document.querySelector("[data-player-media]") as HTMLMediaElement).currentTime = t), d - 1.5);
      await expect.poll(async () => (await mediaState(p)).paused, { timeout: 10_000 }).toBe(true);
      expect(await p.locator("[data-player-sheet] h2").innerText()).toBe(a.title);
      expect((await mediaState(p)).time).toBeGreaterThan(d - 1);
      await expect.poll(() => sleep.inputValue()).toBe("off");
    } finally {
      await ctx.close();
    }
  });
});
