/**
 * Ranking across sources in a real browser (ADR 0052): fixture sites stand in for 172Mix and
 * 清风DJ, and both list 福州DJ阿远's 慢摇串烧. The streamed search shows it once, as 172Mix's hit
 * (清风DJ answers later), and 清风DJ's copy becomes a place of that row — 也在：清风DJ — without
 * moving any row. Playing that place plays the mix from 清风DJ (its HLS stream through our
 * route). Screenshots at 1366×900 and 390×844 under test-results/screenshots/ranking/.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LONG_MIX_PATH, MEDIA_URL_PREFIX } from "../server/demo-media/prepare-demo-media";
import { createSourceAdapters } from "../server/modules/sources/registry";
import { file, html, startFixtureSite, withLatency, type FixtureSite } from "../server/testing/fixture-site";
import { hidePlayUrl } from "../server/testing/vvvdj-hidden-url";
import { hydrated, launchBrowser } from "./browser";
import { mediaState } from "./player-helpers";
import { ROOT, startWebServer, watchProblems } from "./web-server";

const SHOTS = path.join(ROOT, "test-results", "screenshots", "ranking");
const fixture = (site: string, name: string) => readFileSync(new URL(`../server/modules/sources/parsers/fixtures/${site}/${name}`, import.meta.url), "utf8");
const HLS_DIR = new URL("../assets/demo/hls/demo-mix/", import.meta.url);
const HLS_TYPES: Record<string, string> = { m3u8: "application/vnd.apple.mpegurl", mp4: "video/mp4", m4s: "video/iso.segment" };
const SITE_MEDIA = "https://mp3.172mix.com/mp3/userdj/20261102/6a3f9c01e5b84d2aa1c07f3e9d1b2c44.m4a";
const MEDIA_PATH = "/mp3/userdj/mix.mp3";
/** 清风DJ answers its searches this late: 172Mix's hits are on screen first. */
const VVVDJ_MS = 1_200;
const MIX = "福州DJ阿远-全中文国粤语Club音乐周杰伦夜曲经典慢摇串烧";

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let minx: FixtureSite;
let vvvdj: FixtureSite;
let closeSources = () => {};

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [minx, vvvdj] = await Promise.all([startFixtureSite(), startFixtureSite()]);
  const built = createSourceAdapters({
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: { warn: () => {} },
    overrides: {
      "172minx": { baseUrl: minx.url, allowAddresses: [minx.host], extraMediaHosts: [minx.host], minIntervalMs: 0, timeoutMs: 5_000 },
      vvvdj: { baseUrl: vvvdj.url, allowAddresses: [vvvdj.host], extraMediaHosts: [vvvdj.host], minIntervalMs: 0, timeoutMs: 5_000 },
    },
  });
  closeSources = built.close;
  // Only the fixture sites: DJUU would reach for the real one.
  server = await startWebServer({ suites: 10, singles: 10 }, { sourceAdapters: built.sources.filter((s) => s.code !== "djuu") });
  const mix = Buffer.from(await (await fetch(`${server.url}${MEDIA_URL_PREFIX}/demo/${LONG_MIX_PATH}`)).arrayBuffer());
  minx
    .route("/searches", html(fixture("172minx", "search.html")))
    .route(/^\/play\/[\w-]+$/u, html(fixture("172minx", "play.html").replace(SITE_MEDIA, `${minx.url}${MEDIA_PATH}`)))
    .route(MEDIA_PATH, file(mix, "audio/mpeg"));
  const vvvdjPlay = fixture("vvvdj", "play.html").replace(/O000O0OO0O0OO\('[^']*','[^']*'\)/u, `O000O0OO0O0OO(${hidePlayUrl(`${vvvdj.url}/hls/index.m3u8`)})`);
  vvvdj.route("/search/so", withLatency(VVVDJ_MS, html(fixture("vvvdj", "search.html")))).route(/^\/play\/\d+\.html$/u, html(vvvdjPlay));
  for (const name of readdirSync(HLS_DIR)) vvvdj.route(`/hls/${name}`, file(readFileSync(new URL(name, HLS_DIR)), HLS_TYPES[name.split(".").pop()!]!));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  closeSources();
  await Promise.all([minx?.close(), vvvdj?.close()]);
});

const hits = (page: Page) => page.locator("[aria-live=polite] ol li");
const rowsOf = (page: Page) =>
  hits(page).evaluateAll((lis) =>
    lis.map((li) => ({
      source: li.dataset.source!,
      name: li.querySelector("div a")!.textContent!,
      top: Math.round(li.getBoundingClientRect().top + window.scrollY),
      height: Math.round(li.getBoundingClientRect().height),
    })),
  );

async function search(viewport: { width: number; height: number }, keyword: string) {
  const page = await browser.newPage({ viewport, locale: "zh-CN" });
  const problems = await watchProblems(page);
  await page.goto(`${server.url}/`);
  await hydrated(page);
  const box = page.getByRole("search");
  await box.getByLabel("搜索关键词").fill(keyword);
  await box.getByRole("button", { name: "搜索" }).click();
  return { page, problems };
}

describe("one mix found on two sites", () => {
  it("is one row with both places; the later site's place joins the row shown, moving nothing; playing it plays from that site (desktop)", async () => {
    const { page, problems } = await search({ width: 1366, height: 900 }, "yequ");
    const row = hits(page).filter({ hasText: MIX });
    // 172Mix's hits show while 清风DJ is still answering: the mix is 172Mix's row, with no other place yet.
    await row.first().waitFor();
    await expect.poll(() => page.locator('[data-source-state="vvvdj"]').getAttribute("data-state")).toBe("searching");
    expect(await row.getAttribute("data-source")).toBe("172minx");
    expect(await row.locator("[data-places]").count()).toBe(0);
    const before = await rowsOf(page);

    await page.getByText("“yequ” 找到").waitFor({ timeout: 10_000 });
    // One row for the mix, now with 清风DJ as its other place; every row shown before is where it was.
    expect(await row.count()).toBe(1);
    await expect.poll(() => row.locator("[data-places]").textContent()).toBe("也在：清风DJ");
    const after = await rowsOf(page);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.filter((r) => r.name === MIX)).toHaveLength(1);
    // 清风DJ's other hits are rows of their own, after those shown.
    expect(after.slice(before.length).every((r) => r.source === "vvvdj")).toBe(true);
    expect(after.slice(before.length).length).toBeGreaterThan(0);

    // Playing the second place plays the mix from 清风DJ, through our route.
    const asked: string[] = [];
    page.on("request", (req) => void (req.url().includes("/api/forntend/source-play") && asked.push(req.url())));
    const chip = row.locator('button[data-place="vvvdj"]');
    expect(await chip.getAttribute("aria-label")).toBe(`在清风DJ播放 ${MIX}`);
    await chip.click();
    await expect.poll(async () => (await mediaState(page)).paused, { timeout: 15_000 }).toBe(false);
    const from = (await mediaState(page)).time;
    await expect.poll(async () => (await mediaState(page)).time, { timeout: 15_000 }).toBeGreaterThan(from + 0.5);
    expect(asked.some((url) => url.includes("source=vvvdj") && url.includes("id=234001")), asked.join("\n")).toBe(true);
    expect(asked.some((url) => url.includes("source=172minx"))).toBe(false);
    expect(vvvdj.hits.filter((h) => h.path === "/play/234001.html")).toHaveLength(1);
    expect(minx.hits.filter((h) => h.path.startsWith("/play/"))).toHaveLength(0);
    await expect.poll(() => chip.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => page.locator("[data-player-bar]").textContent()).toContain("慢摇串烧");
    await row.evaluate((li) => li.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: path.join(SHOTS, "desktop.png") });
    // The fixture sites' covers are on hosts this machine cannot resolve.
    expect(problems.filter((p) => !p.endsWith("Failed to load resource: net::ERR_NAME_NOT_RESOLVED"))).toEqual([]);
    await page.close();
  });

  it("a repeat, from the kept answer, shows the row with both places at once, and fits a phone (390×844)", async () => {
    const { page, problems } = await search({ width: 390, height: 844 }, "yequ");
    await page.getByText("“yequ” 找到").waitFor({ timeout: 10_000 });
    const row = hits(page).filter({ hasText: MIX });
    expect(await row.count()).toBe(1);
    await expect.poll(() => row.locator("[data-places]").textContent()).toBe("也在：清风DJ");
    const chip = row.locator('button[data-place="vvvdj"]');
    await expect.poll(() => chip.isVisible()).toBe(true);
    const box = (await chip.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // A target a finger can hit (24 px, WCAG 2.2), not the desktop's 16 px chip.
    expect(box.height).toBeGreaterThanOrEqual(24);
    // Nothing scrolls sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await row.evaluate((li) => li.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: path.join(SHOTS, "phone.png") });
    await chip.click();
    await expect.poll(async () => (await mediaState(page)).paused, { timeout: 15_000 }).toBe(false);
    await page.screenshot({ path: path.join(SHOTS, "phone-playing.png") });
    expect(problems.filter((p) => !p.endsWith("Failed to load resource: net::ERR_NAME_NOT_RESOLVED"))).toEqual([]);
    await page.close();
  });
});
