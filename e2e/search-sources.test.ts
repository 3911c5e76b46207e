/**
 * The home search with external sources (issue 11): local fixture sites stand in for DJUU,
 * 172Mix and 清风DJ. Hits of every source show their site's name and logo, external ones link
 * out to the site and play through our resolve route; a source that fails is named in one
 * quiet line while the others' hits show; a source that cannot serve the query (172Mix and a
 * Chinese keyword) is skipped without a word.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchPage } from "../server/modules/sources/adapters/djuu.fixtures";
import { createSourceAdapters } from "../server/modules/sources/registry";
import { html, startFixtureSite, status, type FixtureSite } from "../server/testing/fixture-site";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-src-web";
const fixture = (site: string, name: string) => readFileSync(new URL(`../server/modules/sources/parsers/fixtures/${site}/${name}`, import.meta.url), "utf8");

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let sites: FixtureSite[] = [];
let closeSources = () => {};
/** Flipped by a test: DJUU's search answers 500 from then on. */
let djuuDown = false;

beforeAll(async () => {
  const [djuu, minx, vvvdj] = (sites = await Promise.all([startFixtureSite(), startFixtureSite(), startFixtureSite()]));
  djuu.route("/search", (req, res, match) => (djuuDown ? status(500, "Internal Server Error") : html(searchPage()))(req, res, match));
  // 172Mix's firewall refusing us: every query it is sent answers 403 (a non-ASCII one is never sent: ADR 0046).
  minx.route("/searches", status(403, "403 Forbidden"));
  vvvdj.route("/search/so", html(fixture("vvvdj", "search.html")));
  const built = createSourceAdapters({
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: { warn: () => {} },
    overrides: Object.fromEntries(
      (["djuu", "172minx", "vvvdj"] as const).map((code, i) => [
        code,
        // djuu's app API on its fixture site too (it has none: 404, so djuu reads its pages), never the real one.
        { baseUrl: sites[i]!.url, ...(code === "djuu" ? { apiBaseUrl: `${sites[i]!.url}/app/v1` } : {}), allowAddresses: [sites[i]!.host], minIntervalMs: 0, timeoutMs: 2_000 },
      ]),
    ),
  });
  closeSources = built.close;
  server = await startWebServer({ suites: 40, singles: 30 }, { sourceAdapters: built.sources });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  closeSources();
  await Promise.all(sites.map((s) => s.close()));
});

async function searchFor(keyword: string, init?: () => void) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
  if (init) await page.addInitScript(init);
  const problems = await watchProblems(page);
  await page.goto(`${server.url}/`);
  await hydrated(page);
  const box = page.getByRole("search");
  await box.getByLabel("搜索关键词").fill(keyword);
  await box.getByRole("button", { name: "搜索" }).click();
  await page.getByText(`“${keyword}” 找到`).waitFor();
  return { page, problems };
}

const hits = (page: Page) => page.locator("[aria-live=polite] ol li");

describe("home search across sources", () => {
  it("shows every source's hits with its name and logo, links external ones out, and skips 172Mix for a Chinese keyword without a word", async () => {
    const { page, problems } = await searchFor("夜曲");
    const rows = await hits(page).evaluateAll((lis) =>
      lis.map((li) => {
        const link = li.querySelector<HTMLAnchorElement>("div a")!;
        const logo = li.querySelector<HTMLImageElement>("[data-site] img");
        return {
          source: li.dataset.source!,
          href: link.getAttribute("href")!,
          target: link.target,
          rel: link.rel,
          site: li.querySelector("[data-site]")!.textContent!,
          logo: logo?.getAttribute("src") ?? "",
          lazy: logo?.loading ?? "",
        };
      }),
    );
    const sources = new Set(rows.map((r) => r.source));
    expect(sources).toEqual(new Set(["local", "djuu", "vvvdj"]));
    for (const row of rows) {
      expect(row.logo, `logo of a ${row.source} hit`).toMatch(/^\/media\/demo\/logos\/\w+\.(png|webp)$/);
      expect(row.lazy).toBe("lazy");
      if (row.source === "local") {
        expect(row.href).toMatch(/^\/sutie\/\d+\.html$/);
        expect(row.target).toBe("");
      } else {
        expect(row.href.startsWith(sites[row.source === "djuu" ? 0 : 2]!.url + "/play/")).toBe(true);
        expect([row.target, row.rel]).toEqual(["_blank", "noopener noreferrer nofollow"]);
        expect(row.site).toBe(`来源${row.source === "djuu" ? "DJUU" : "清风DJ"}`);
      }
    }
    // 172Mix cannot serve a Chinese keyword (its firewall): not asked, not named, no failure.
    expect(await page.locator("[data-source-notice]").count()).toBe(0);
    expect(sites[1]!.hits).toHaveLength(0);
    expect(await page.getByText("搜索失败").count()).toBe(0);
    // Logos have loaded once in view.
    await page.locator("[aria-live=polite]").scrollIntoViewIfNeeded();
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>("[aria-live=polite] li [data-site] img")].every((i) => i.complete && i.naturalWidth > 0));
    await page.screenshot({ path: `${SHOTS}/mixed-results.png`, fullPage: false });
    // On a phone the badges fit beside the names: nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator("[aria-live=polite]").scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/mixed-results-phone.png` });
    // The fixture sites' covers are http: refused by our CSP, so the default cover shows, quietly.
    // One djuu cover is https://img.djuu.com/…, which this machine cannot resolve (no outside network).
    expect(problems.filter((p) => !p.endsWith("Failed to load resource: net::ERR_NAME_NOT_RESOLVED"))).toEqual([]);
    await page.close();
  });

  it("plays external hits through our resolve route, 清风DJ's as HLS", async () => {
    // No native HLS (this Chromium has it): only the hit's hint can make the player pick hls.js.
    const { page } = await searchFor("夜曲", () => {
      const native = HTMLMediaElement.prototype.canPlayType;
      HTMLMediaElement.prototype.canPlayType = function (type: string) {
        return /mpegurl/i.test(type) ? "" : native.call(this, type);
      };
    });
    const asked: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes("/api/forntend/source-play")) asked.push(`${req.resourceType()} ${decodeURIComponent(new URL(req.url()).search)}`);
    });
    await page.locator("li[data-source=vvvdj] button[data-play-item]").first().click();
    await expect.poll(() => asked.find((a) => a.includes("source=vvvdj"))).toBeTruthy();
    // hls.js fetches the playlist itself (xhr/fetch), not the media element.
    expect(asked.find((a) => a.includes("source=vvvdj"))).toMatch(/^(xhr|fetch) /);
    await page.locator("li[data-source=djuu] button[data-play-item]").first().click();
    await expect.poll(() => asked.find((a) => a.includes("source=djuu"))).toMatch(/^media /);
    await page.close();
  });

  it("a source answering 500 is named, beside the one refusing an ASCII query, while the rest still show", async () => {
    djuuDown = true;
    const { page } = await searchFor("jay");
    await expect(page.locator("[data-source-notice]").textContent()).resolves.toBe("DJUU、172Mix 暂时无法访问，已显示其他来源的结果");
    const sources = new Set(await hits(page).evaluateAll((lis) => lis.map((li) => li.dataset.source)));
    expect(sources.has("vvvdj")).toBe(true);
    expect(sources.has("djuu")).toBe(false);
    await page.screenshot({ path: `${SHOTS}/two-sources-down.png` });
    await page.close();
  });
});
