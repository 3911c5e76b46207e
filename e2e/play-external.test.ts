/**
 * Playing an external hit in the browser (issue 11, ADR 0022): 172Mix's media host wants its
 * Referer, so the long demo mix, served by a fixture 172Mix with byte ranges, reaches the
 * global player through our source-play route. Seeking to the middle asks the site for the
 * middle of the file, and playback goes on from there.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LONG_MIX_PATH, MEDIA_URL_PREFIX } from "../server/demo-media/prepare-demo-media";
import { MINX172_REFERER } from "../server/modules/sources/adapters/minx172";
import { VVVDJ_REFERER } from "../server/modules/sources/adapters/vvvdj";
import { createSourceAdapters } from "../server/modules/sources/registry";
import { file, html, startFixtureSite, status, type FixtureSite } from "../server/testing/fixture-site";
import { hidePlayUrl } from "../server/testing/vvvdj-hidden-url";
import { hydrated, launchBrowser } from "./browser";
import { mediaState, seekToSound } from "./player-helpers";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-src-e2e";
const fixture = (site: string, name: string) => readFileSync(new URL(`../server/modules/sources/parsers/fixtures/${site}/${name}`, import.meta.url), "utf8");
/** The committed demo HLS stream (fMP4 segments of 6 s and an EXT-X-MAP), served as 清风DJ's. */
const HLS_DIR = new URL("../assets/demo/hls/demo-mix/", import.meta.url);
const HLS_TYPES: Record<string, string> = { m3u8: "application/vnd.apple.mpegurl", mp4: "video/mp4", m4s: "video/iso.segment" };
const SITE_MEDIA = "https://mp3.172mix.com/mp3/userdj/20261102/6a3f9c01e5b84d2aa1c07f3e9d1b2c44.m4a";
const MEDIA_PATH = "/mp3/userdj/20261102/6a3f9c01-mix.mp3";

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let minx: FixtureSite;
let vvvdj: FixtureSite;
let mixBytes = 0;
let closeSources = () => {};

beforeAll(async () => {
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
  // The real long demo mix (66 min mp3), as our media route serves it, becomes the site's file.
  const mix = Buffer.from(await (await fetch(`${server.url}${MEDIA_URL_PREFIX}/demo/${LONG_MIX_PATH}`)).arrayBuffer());
  mixBytes = mix.length;
  const serveMix = file(mix, "audio/mpeg");
  minx
    .route("/searches", html(fixture("172minx", "search.html")))
    .route(/^\/play\/[\w-]+$/u, html(fixture("172minx", "play.html").replace(SITE_MEDIA, `${minx.url}${MEDIA_PATH}`)))
    // Like the real media host: nothing without the site's own Referer.
    .route(MEDIA_PATH, (req, res, match) => (req.headers.referer === MINX172_REFERER ? serveMix : status(403))(req, res, match));
  const vvvdjPlay = fixture("vvvdj", "play.html").replace(/O000O0OO0O0OO\('[^']*','[^']*'\)/u, `O000O0OO0O0OO(${hidePlayUrl(`${vvvdj.url}/hls/index.m3u8`)})`);
  vvvdj.route("/search/so", html(fixture("vvvdj", "search.html"))).route(/^\/play\/\d+\.html$/u, html(vvvdjPlay));
  for (const name of readdirSync(HLS_DIR)) {
    const serve = file(readFileSync(new URL(name, HLS_DIR)), HLS_TYPES[name.split(".").pop()!]!);
    vvvdj.route(`/hls/${name}`, (req, res, match) => (req.headers.referer === VVVDJ_REFERER ? serve : status(403))(req, res, match));
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  closeSources();
  await Promise.all([minx?.close(), vvvdj?.close()]);
});

interface RouteAnswer {
  status: number;
  range: string | null;
  contentRange: string | null;
}

async function searchFor(page: Page, keyword: string) {
  await page.goto(`${server.url}/`);
  await hydrated(page);
  const box = page.getByRole("search");
  await box.getByLabel("搜索关键词").fill(keyword);
  await box.getByRole("button", { name: "搜索" }).click();
  await page.getByText(`“${keyword}” 找到`).waitFor();
}

const advancing = async (page: Page) => {
  const from = (await mediaState(page)).time;
  await expect.poll(async () => (await mediaState(page)).time, { timeout: 15_000 }).toBeGreaterThan(from + 0.5);
};

describe("playing an external hit", () => {
  it("plays a 172Mix hit through our route with Range, and seeking to the middle asks the site for the middle", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
    const problems = await watchProblems(page);
    const answers: RouteAnswer[] = [];
    page.on("response", async (res) => {
      if (!res.url().includes("/api/forntend/source-play")) return;
      answers.push({ status: res.status(), range: await res.request().headerValue("range"), contentRange: await res.headerValue("content-range") });
    });
    // 172Mix answers ASCII keywords only (its firewall refuses the rest when logged out).
    await searchFor(page, "yequ");
    const hit = page.locator('[aria-live=polite] ol li[data-source="172minx"]').first();
    await hit.locator("button[data-play-item]").click();

    await expect.poll(async () => (await mediaState(page)).src, { timeout: 15_000 }).toContain("/api/forntend/source-play?source=172minx&id=6a3f9c01");
    await expect.poll(async () => (await mediaState(page)).paused, { timeout: 15_000 }).toBe(false);
    await advancing(page);
    const { duration } = await mediaState(page);
    expect(duration).toBeGreaterThan(60 * 60);

    // Seek with the player's progress slider to the middle of the mix.
    const middle = Math.round(duration / 2);
    const before = minx.hits.filter((h) => h.path === MEDIA_PATH).length;
    await seekToSound(page, middle);
    await advancing(page);
    const state = await mediaState(page);
    expect(state.paused).toBe(false);
    expect(state.time).toBeGreaterThan(middle);
    expect(state.time).toBeLessThan(middle + 30);

    // (1) The browser asked our route with a Range and got 206 with the part it asked for.
    const ranged = answers.filter((a) => a.range !== null);
    expect(ranged.length).toBeGreaterThan(0);
    for (const a of ranged) expect(a.status).toBe(206);
    const startOf = (range: string) => Number(/^bytes=(\d+)-/u.exec(range)?.[1] ?? NaN);
    const middleAsk = ranged.find((a) => startOf(a.range!) > mixBytes * 0.3 && startOf(a.range!) < mixBytes * 0.7);
    expect(middleAsk, JSON.stringify(answers)).toBeTruthy();
    expect(middleAsk!.contentRange).toMatch(new RegExp(`^bytes ${startOf(middleAsk!.range!)}-\\d+/${mixBytes}$`, "u"));

    // (2) The site got its Referer on every request, and a Range from the middle after the seek.
    const mediaHits = minx.hits.filter((h) => h.path === MEDIA_PATH);
    expect(mediaHits.length).toBeGreaterThan(before);
    for (const h of mediaHits) expect(h.headers.referer).toBe(MINX172_REFERER);
    const siteStarts = mediaHits.slice(before).map((h) => startOf(h.headers.range ?? ""));
    expect(siteStarts.some((s) => s > mixBytes * 0.3 && s < mixBytes * 0.7), JSON.stringify(siteStarts)).toBe(true);
    // The address is resolved once for the whole play.
    expect(minx.hits.filter((h) => h.path === "/play/6a3f9c01")).toHaveLength(1);

    // (3) It goes on playing after the seek, and the player shows the external hit.
    await advancing(page);
    const bar = page.locator("[data-player-bar]");
    await expect.poll(() => bar.textContent()).toContain("夜曲");
    await page.screenshot({ path: `${SHOTS}/external-playing.png` });
    // The 172Mix fixture's covers are on https://img.172mix.com, which this machine cannot resolve.
    expect(problems.filter((p) => !p.endsWith("Failed to load resource: net::ERR_NAME_NOT_RESOLVED"))).toEqual([]);
    await page.close();
  });

  it("plays a 清风DJ hit as HLS: playlist and segments through our signed links, each with the site's Referer", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
    const problems = await watchProblems(page);
    const direct: string[] = [];
    const segments: { status: number; url: string }[] = [];
    page.on("request", (req) => void (req.url().startsWith(vvvdj.url) && direct.push(req.url())));
    page.on("response", (res) => void (res.url().includes("/api/forntend/source-play/segment") && segments.push({ status: res.status(), url: res.url() })));
    await searchFor(page, "yequ");
    await page.locator('[aria-live=polite] ol li[data-source="vvvdj"]').first().locator("button[data-play-item]").click();
    await expect.poll(async () => (await mediaState(page)).paused, { timeout: 15_000 }).toBe(false);
    await advancing(page);
    const { duration } = await mediaState(page);
    expect(duration).toBeGreaterThan(60);

    const middle = Math.round(duration / 2);
    const before = vvvdj.hits.length;
    await seekToSound(page, middle);
    await advancing(page);
    const state = await mediaState(page);
    expect(state.paused).toBe(false);
    expect(state.time).toBeGreaterThan(middle);

    // The browser only ever talked to us; every segment answer was ours and good.
    expect(direct).toEqual([]);
    expect(segments.length).toBeGreaterThan(0);
    for (const s of segments) expect(s.status, s.url).toBeLessThan(300);
    // The site saw its Referer on everything, and after the seek a segment from the middle.
    const hls = vvvdj.hits.filter((h) => h.path.startsWith("/hls/"));
    for (const h of hls) expect(h.headers.referer, h.path).toBe(VVVDJ_REFERER);
    expect(hls.map((h) => h.path)).toContain("/hls/init.mp4");
    const middleSegment = `/hls/seg-${String(Math.floor(middle / 6)).padStart(3, "0")}.m4s`;
    expect(vvvdj.hits.slice(before).map((h) => h.path)).toContain(middleSegment);
    // One play, one resolution of the address.
    expect(vvvdj.hits.filter((h) => /^\/play\//u.test(h.path))).toHaveLength(1);

    await page.screenshot({ path: `${SHOTS}/external-hls-playing.png` });
    expect(problems.filter((p) => !p.endsWith("Failed to load resource: net::ERR_NAME_NOT_RESOLVED"))).toEqual([]);
    await page.close();
  });
});
