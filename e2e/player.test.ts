/**
 * The global player in Debian's Chromium against the real app: play, seek in the hour-long
 * mix, keyboard, navigation without interruption, reload, track end, playlist, and the
 * click-to-sound and seek-to-sound times (logged and written to test-results/).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { clickToSound, type DemoItems, findDemoItems, mediaState, median, seekToSound } from "./player-helpers";
import { ROOT, startWebServer, watchProblems } from "./web-server";

const SCREENS = path.join(ROOT, "test-results", "screens");
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let demo: DemoItems;
let context: BrowserContext;
let page: Page;
let problems: string[];
const timings: Record<string, number[]> = { clickPlaying: [], clickSound: [], seekSound: [] };

const bar = () => page.locator("[data-player-bar]");
const advancing = async (p: Page = page) => {
  const a = (await mediaState(p)).time;
  await expect.poll(async () => (await mediaState(p)).time, { timeout: 15_000 }).toBeGreaterThan(a + 0.3);
};

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  server = await startWebServer();
  browser = await launchBrowser();
  demo = await findDemoItems(server.url);
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
  page = await context.newPage();
  problems = await watchProblems(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe("global player", () => {
  it("plays the hour-long mix from a category list's play button, and currentTime advances", async () => {
    expect(demo.loops.length).toBeGreaterThanOrEqual(2);
    await page.goto(`${server.url}${demo.longMix.channel.url}`);
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => page.locator("[data-player-slot]").innerText()).toContain("暂无播放内容");
    timings.clickPlaying.push(0);
    const first = await clickToSound(page, `播放 ${demo.longMix.title}`);
    timings.clickPlaying[0] = first.playing;
    timings.clickSound.push(first.sound);
    await advancing();
    await expect.poll(() => bar().innerText()).toContain(demo.longMix.title);
    await expect.poll(() => bar().getByRole("button", { name: "暂停", exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("button", { name: `暂停 ${demo.longMix.title}` }).isVisible()).toBe(true);
    // Media Session: the lock screen and hardware keys know what plays.
    const session = () =>
      page.evaluate(() => ({
        title: navigator.mediaSession.metadata?.title,
        artist: navigator.mediaSession.metadata?.artist,
        artwork: navigator.mediaSession.metadata?.artwork.length,
        state: navigator.mediaSession.playbackState,
      }));
    await expect.poll(session).toEqual({ title: demo.longMix.title, artist: demo.longMix.artist, artwork: 1, state: "playing" });
    // The page keeps 64px free below its content for the bar.
    await expect.poll(() => page.locator("main").evaluate((m) => getComputedStyle(m).paddingBottom)).toBe("88px");
    await page.screenshot({ path: path.join(SCREENS, "player-bar.png") });
  });

  it("seeks to the middle of the long mix and plays from there (seek-to-sound measured)", async () => {
    const duration = (await mediaState(page)).duration;
    expect(duration).toBeGreaterThan(3900);
    const ranges: string[] = [];
    const onRequest = (r: import("playwright-core").Request) => {
      if (r.url().includes("66min")) ranges.push(r.headers().range ?? "none");
    };
    page.on("request", onRequest);
    for (const fraction of [0.5, 0.25, 0.75, 0.6, 0.4]) {
      timings.seekSound.push(await seekToSound(page, Math.floor(duration * fraction)));
    }
    await seekToSound(page, Math.floor(duration / 2));
    page.off("request", onRequest);
    // Each seek is served by a Range request from the middle of the file, never the whole file.
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.every((r) => /^bytes=\d+-/.test(r))).toBe(true);
    expect(ranges.some((r) => Number(/^bytes=(\d+)-/.exec(r)![1]) > 10_000_000)).toBe(true);
    const s = await mediaState(page);
    expect(s.time).toBeGreaterThan(duration / 2 - 1);
    expect(s.paused).toBe(false);
    await advancing();
  });

  it("answers the keyboard: space pauses and plays, arrows seek and change volume, m mutes; not while typing", async () => {
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    const before = await mediaState(page);
    await page.keyboard.press("m");
    expect((await mediaState(page)).muted).toBe(true);
    await page.keyboard.press("m");
    expect((await mediaState(page)).muted).toBe(false);
    await page.keyboard.press("ArrowDown");
    expect((await mediaState(page)).volume).toBeCloseTo(before.volume - 0.05, 2);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowRight");
    expect((await mediaState(page)).time).toBeGreaterThan(before.time + 9);
    await page.keyboard.press(" ");
    await expect.poll(async () => (await mediaState(page)).paused).toBe(true);
    await page.keyboard.press(" ");
    await expect.poll(async () => (await mediaState(page)).paused).toBe(false);
    // Typing into the search box is not a command to the player.
    const field = page.locator("input[type=text], input[type=search], input:not([type])").first();
    if (await field.count()) {
      await field.click();
      await page.keyboard.type("m ");
      expect((await mediaState(page)).muted).toBe(false);
      expect((await mediaState(page)).paused).toBe(false);
    }
  });

  it("keeps playing, without restarting, through client-side navigation to other pages", async () => {
    await page.evaluate(() => {
      (document.querySelector("[data-player-media]") as HTMLMediaElement & { __mark?: number }).__mark = 42;
    });
    const before = (await mediaState(page)).time;
    // The bar's title links to the suite page (the bar hides there; the page's controls take over).
    await bar().getByRole("link", { name: demo.longMix.title }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toContain(demo.longMix.title);
    const there = await mediaState(page);
    expect(there.mark).toBe(42);
    expect(there.paused).toBe(false);
    expect(there.time).toBeGreaterThanOrEqual(before);
    await expect.poll(() => page.locator("[data-player-slot]").isHidden()).toBe(true);
    await expect.poll(() => page.getByRole("button", { name: "暂停", exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.locator("article").getByText(/正在播放：第 \d+ 首 \/ 共 \d+ 首/).count()).toBe(1);
    // Back to the list through the breadcrumb: still the same element, still going.
    await page.getByRole("navigation", { name: "面包屑" }).getByRole("link", { name: demo.longMix.channel.name }).click();
    await page.waitForURL(`**${demo.longMix.channel.url}`);
    const back = await mediaState(page);
    expect(back.mark).toBe(42);
    expect(back.time).toBeGreaterThanOrEqual(there.time);
    await advancing();
    // The suite page gave the playing entry its tracklist: the bar names the track now.
    await expect.poll(() => bar().innerText()).toMatch(/正在播放：第 \d+ 首 \/ 共 \d+ 首/);
  });

  it("clicking a timed track on the detail page seeks the playing mix there", async () => {
    await bar().getByRole("link", { name: demo.longMix.title }).click();
    const third = page.getByTitle("从这里播放").nth(2);
    const [m, s] = (await third.innerText()).split(":").map(Number);
    await third.click();
    await expect.poll(async () => (await mediaState(page)).time, { timeout: 10_000 }).toBeGreaterThan(m * 60 + s);
    expect((await mediaState(page)).time).toBeLessThan(m * 60 + s + 10);
    await expect.poll(() => page.locator("article").getByText("正在播放：第 3 首").count()).toBe(1);
    await page.goBack();
    await page.waitForURL(`**${demo.longMix.channel.url}`);
  });

  it("an ended track advances to the next in the playlist", async () => {
    const [a, b] = demo.loops;
    await page.getByRole("button", { name: `播放 ${a.title}`, exact: true }).click();
    await expect.poll(() => bar().innerText()).toContain(a.title);
    await advancing();
    await page.getByRole("button", { name: `播放 ${b.title}`, exact: true }).click();
    await expect.poll(() => bar().getByRole("link", { name: b.title, exact: true }).count()).toBe(1);
    // Back to a through the playlist, then jump to its last second.
    await bar().getByRole("button", { name: "播放列表" }).click();
    const panel = page.getByRole("dialog", { name: "播放列表" });
    await expect.poll(() => panel.getByRole("listitem").allInnerTexts()).toEqual([
      expect.stringContaining(demo.longMix.title),
      expect.stringContaining(a.title),
      expect.stringContaining(b.title),
    ]);
    await page.screenshot({ path: path.join(SCREENS, "player-playlist.png") });
    await panel.getByRole("button", { name: a.title, exact: true }).click();
    await expect.poll(() => bar().getByRole("link", { name: a.title, exact: true }).count()).toBe(1);
    await advancing();
    const d = (await mediaState(page)).duration;
    await seekToSound(page, Math.floor(d - 2));
    // The bar's title (a link; the open panel lists every title as a button) turns to b.
    await expect.poll(() => bar().getByRole("link", { name: b.title, exact: true }).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => (await mediaState(page)).time, { timeout: 5_000 }).toBeLessThan(10);
    await advancing();
  });

  it("survives a reload: the playlist, current item and position are still there", async () => {
    await seekToSound(page, 15);
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => bar().innerText()).toContain(demo.loops[1].title);
    await expect.poll(async () => (await mediaState(page)).time, { timeout: 10_000 }).toBeGreaterThan(14);
    expect((await mediaState(page)).paused).toBe(true);
    await bar().getByRole("button", { name: "播放列表" }).click();
    await expect.poll(() => page.getByRole("dialog", { name: "播放列表" }).getByRole("listitem").count()).toBe(3);
    // Play resumes where it was.
    await bar().getByRole("button", { name: "播放", exact: true }).click();
    await advancing();
  });

  it("the playlist removes entries and clears", async () => {
    const panel = page.getByRole("dialog", { name: "播放列表" });
    await panel.getByRole("button", { name: `移除 ${demo.longMix.title}` }).click();
    await expect.poll(() => panel.getByRole("listitem").count()).toBe(2);
    await panel.getByRole("button", { name: "清空" }).click();
    await expect.poll(() => page.locator("[data-player-slot]").innerText()).toContain("暂无播放内容");
    await expect.poll(() => page.locator("[data-player-media]").getAttribute("src")).toBeNull();
    await expect.poll(async () => (await mediaState(page)).paused).toBe(true);
    expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  });

  it("click-to-sound and seek-to-sound times are recorded", async () => {
    // More click-to-sound samples: a fresh item each time (nothing cached in the element).
    for (const item of [demo.loops[0], demo.loops[1], demo.longMix]) {
      const t = await clickToSound(page, `播放 ${item.title}`);
      timings.clickPlaying.push(t.playing);
      timings.clickSound.push(t.sound);
    }
    // A `playing` event can come after the clock was seen moving (-1): only real samples count.
    const stats = (all: number[]) => {
      const v = all.filter((x) => x >= 0);
      return { median: Math.round(median(v)), max: Math.round(Math.max(...v)), samples: v.map(Math.round) };
    };
    const summary = { clickPlaying: stats(timings.clickPlaying), clickSound: stats(timings.clickSound), seekSound: stats(timings.seekSound) };
    console.log("player latency (ms)", JSON.stringify(summary));
    writeFileSync(path.join(ROOT, "test-results", "player-latency.json"), JSON.stringify(summary, null, 2));
    // Issue 4: seeking in a long mix starts playing within 300 ms on localhost.
    expect(summary.seekSound.median).toBeLessThan(300);
  });
});
