/**
 * A collected 清风DJ item, processed into our catalogue (ADR 0024), plays in the browser as HLS
 * through hls.js, from its own page and from our search, where the browser has no native HLS:
 * its stored play address carries the hint, no one is asked for the format.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VVVDJ_REFERER } from "../server/modules/sources/adapters/vvvdj";
import { createSourceAdapters } from "../server/modules/sources/registry";
import { insertCollected } from "../server/testing/collected";
import { file, html, startFixtureSite, status, type FixtureSite } from "../server/testing/fixture-site";
import { hidePlayUrl } from "../server/testing/vvvdj-hidden-url";
import { hydrated, launchBrowser } from "./browser";
import { mediaState } from "./player-helpers";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-collected-e2e";
const HLS_DIR = new URL("../assets/demo/hls/demo-mix/", import.meta.url);
const HLS_TYPES: Record<string, string> = { m3u8: "application/vnd.apple.mpegurl", mp4: "video/mp4", m4s: "video/iso.segment" };
const TITLE = "采集清风夜曲串烧";

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let vvvdj: FixtureSite;
let itemId = 0;
let closeSources = () => {};
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  vvvdj = await startFixtureSite();
  const built = createSourceAdapters({
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: { warn: () => {} },
    overrides: { vvvdj: { baseUrl: vvvdj.url, allowAddresses: [vvvdj.host], extraMediaHosts: [vvvdj.host], minIntervalMs: 0, timeoutMs: 5_000 } },
  });
  closeSources = built.close;
  server = await startWebServer({ suites: 4, singles: 4 }, { sourceAdapters: built.sources.filter((s) => s.code === "vvvdj") });
  const play = readFileSync(new URL("../server/modules/sources/parsers/fixtures/vvvdj/play.html", import.meta.url), "utf8");
  vvvdj
    .route("/search/so", html("<html><body><p>无记录...</p></body></html>"))
    .route(/^\/play\/\d+\.html$/u, html(play.replace(/O000O0OO0O0OO\('[^']*','[^']*'\)/u, `O000O0OO0O0OO(${hidePlayUrl(`${vvvdj.url}/hls/index.m3u8`)})`)));
  for (const name of readdirSync(HLS_DIR)) {
    const serve = file(readFileSync(new URL(name, HLS_DIR)), HLS_TYPES[name.split(".").pop()!]!);
    vvvdj.route(`/hls/${name}`, (req, res, match) => (req.headers.referer === VVVDJ_REFERER ? serve : status(403))(req, res, match));
  }
  const id = await insertCollected(server.app.deps.database.db, { source: "vvvdj", sourceId: "228811", title: TITLE, kind: "mix", durationSec: 120 });
  const [done] = await server.app.services.collected.process([id]);
  itemId = done!.itemId!;
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.close();
  closeSources();
  await vvvdj?.close();
});

/** A page whose browser cannot play HLS itself (as most desktop browsers): only hls.js can. */
async function pageWithoutNativeHls(): Promise<{ page: Page; problems: string[]; scripts: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
  contexts.push(context);
  await context.addInitScript(() => {
    const native = HTMLMediaElement.prototype.canPlayType;
    HTMLMediaElement.prototype.canPlayType = function (type: string) {
      return /mpegurl/i.test(type) ? "" : native.call(this, type);
    };
  });
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
  return { page, problems: await watchProblems(page), scripts };
}

const advancing = async (page: Page) => {
  const from = (await mediaState(page)).time;
  await expect.poll(async () => (await mediaState(page)).time, { timeout: 15_000 }).toBeGreaterThan(from + 0.5);
};

describe("a collected 清风DJ item in our catalogue", () => {
  it("plays from its page through hls.js, the playlist through our route", async () => {
    const { page, problems, scripts } = await pageWithoutNativeHls();
    await page.goto(`${server.url}/sutie/${itemId}.html`);
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toContain(TITLE);
    await page.getByRole("button", { name: "播放", exact: true }).click();
    await advancing(page);
    expect((await mediaState(page)).src).toMatch(/^blob:/u);
    expect(scripts.some((u) => u.includes("hls"))).toBe(true);
    expect(vvvdj.hits.some((h) => h.path === "/hls/index.m3u8" && h.headers.referer === VVVDJ_REFERER)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/collected-suite-playing.png` });
    expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  });

  it("plays from our search's hit through hls.js", async () => {
    const { page, problems } = await pageWithoutNativeHls();
    await page.goto(`${server.url}/`);
    await hydrated(page);
    const box = page.getByRole("search");
    await box.getByLabel("搜索关键词").fill("采集清风");
    await box.getByRole("button", { name: "搜索" }).click();
    const hit = page.locator('[aria-live=polite] ol li[data-source="local"]').filter({ hasText: TITLE }).first();
    await hit.locator("button[data-play-item]").click();
    await advancing(page);
    expect((await mediaState(page)).src).toMatch(/^blob:/u);
    await page.screenshot({ path: `${SHOTS}/collected-search-playing.png` });
    expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  });
});
