/**
 * The charts panel's site board (issue 11, ADR 0025): DJUU's own chart, as the collector stored
 * it, next to our qualified plays. A line processed into our catalogue opens its page here and
 * plays our media; the others open the source page in a new tab.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectedItems, sourceChartEntries } from "../server/db/schema/index";
import { queryRows } from "../server/db/sql";
import { hydrated, launchBrowser } from "./browser";
import { mediaState } from "./player-helpers";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-source-charts";

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let linked: { id: number; title: string };

beforeAll(async () => {
  server = await startWebServer({ suites: 24, singles: 10, plays: 1500 });
  const { db } = server.app.deps.database;
  [linked] = await queryRows<{ id: number; title: string }>(
    db,
    sql`select id, title from items where kind = 'mix' and status = 'normal' and play_url like '%.mp3' order by id limit 1`,
  );
  const rows = [
    { title: linked.title, sourceId: "88001", status: 1, itemId: linked.id },
    { title: "站点热播：2026全中文慢摇串烧", sourceId: "88002", artist: "DJ阿福" },
    { title: "站点热播：夜店电音劲爆舞曲", sourceId: "88003", artist: "DJ小K" },
  ];
  const ids = [];
  for (const r of rows) {
    const [row] = await db
      .insert(collectedItems)
      .values({ source: "djuu", kind: "mix", sourceUrl: `https://www.djuu.com/play/${r.sourceId}.html`, ...r })
      .returning({ id: collectedItems.id });
    ids.push(row.id);
  }
  await db.insert(sourceChartEntries).values(ids.map((collectedItemId, i) => ({ site: "djuu", kind: "mix" as const, period: "week" as const, rank: i + 1, collectedItemId })));
  server.app.services.charts.sourceChartsChanged("djuu");
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openHome(viewport: { width: number; height: number }) {
  const page = await browser.newPage({ viewport, locale: "zh-CN" });
  const problems = await watchProblems(page);
  await page.goto(`${server.url}/`);
  await hydrated(page);
  return { page, problems, charts: page.getByRole("complementary", { name: "排行榜" }) };
}

const boardTab = (page: Page, name: string) =>
  page.getByRole("complementary", { name: "排行榜" }).getByRole("tablist", { name: "榜单来源" }).getByRole("tab", { name, exact: true });

describe("charts panel: a site's own chart", () => {
  it("switches from our plays to DJUU's chart, links in and out, and plays a line", async () => {
    const { page, problems, charts } = await openHome({ width: 1280, height: 900 });
    const lines = charts.locator("ol li");
    // Our plays first (the seeded plays made a chart), with its play counts.
    expect(await boardTab(page, "本站播放").getAttribute("aria-selected")).toBe("true");
    expect((await lines.first().innerText())).toMatch(/\d+次/);

    await boardTab(page, "DJUU榜").click();
    await expect.poll(() => charts.locator("ol li a").allInnerTexts()).toEqual([linked.title, "站点热播：2026全中文慢摇串烧", "站点热播：夜店电音劲爆舞曲"]);
    const ours = charts.getByRole("link", { name: linked.title });
    expect(await ours.getAttribute("href")).toBe(`/sutie/${linked.id}.html`);
    expect(await ours.getAttribute("target")).toBeNull();
    const out = charts.getByRole("link", { name: "站点热播：夜店电音劲爆舞曲" });
    expect(await out.getAttribute("href")).toBe("https://www.djuu.com/play/88003.html");
    expect(await out.getAttribute("target")).toBe("_blank");
    expect(await out.getAttribute("rel")).toContain("noopener");
    expect(await lines.nth(2).innerText()).toContain("DJUU");
    // External lines play through our source-play route.
    expect(await charts.locator("[data-play-item='djuu:88003']").count()).toBe(1);
    await page.screenshot({ path: path.join(SHOTS, "home-djuu-chart-desktop.png") });
    await charts.screenshot({ path: path.join(SHOTS, "panel-djuu-chart.png") });

    // The linked line plays our own media in the global player.
    await charts.getByRole("button", { name: `播放 ${linked.title}` }).click();
    await expect.poll(async () => (await mediaState(page)).src).toContain("/media/");
    await expect.poll(async () => (await mediaState(page)).paused).toBe(false);

    // Another site with nothing collected says so; our plays are one click away.
    await charts.getByRole("tablist", { name: "站点" }).getByRole("tab", { name: "172Mix" }).click();
    await charts.getByText("暂未收录172Mix的榜单").waitFor();
    await boardTab(page, "本站播放").click();
    await expect.poll(async () => (await lines.allInnerTexts()).length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("fits a narrow phone screen", async () => {
    const { page, problems, charts } = await openHome({ width: 390, height: 844 });
    await boardTab(page, "DJUU榜").click();
    await charts.getByRole("link", { name: "站点热播：夜店电音劲爆舞曲" }).waitFor();
    await charts.scrollIntoViewIfNeeded();
    const box = (await charts.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(390);
    // The board switch stays on one line inside the panel.
    const tabs = await page.getByRole("tablist", { name: "榜单来源" }).boundingBox();
    expect(tabs!.height).toBeLessThan(40);
    await charts.screenshot({ path: path.join(SHOTS, "panel-djuu-chart-mobile.png") });
    await page.screenshot({ path: path.join(SHOTS, "home-djuu-chart-mobile.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the site's chart by itself when our plays chart is empty", async () => {
    // 清风DJ: no qualified plays this week, one line collected from its own chart.
    const { db } = server.app.deps.database;
    await db.execute(sql`delete from chart_entries where site = 'vvvdj' and kind = 'mix' and period = 'week'`);
    const [row] = await db
      .insert(collectedItems)
      .values({ source: "vvvdj", kind: "mix", title: "清风站点榜第一", sourceId: "9001", sourceUrl: "https://www.vvvdj.com/play/9001.html" })
      .returning({ id: collectedItems.id });
    await db.insert(sourceChartEntries).values({ site: "vvvdj", kind: "mix", period: "week", rank: 1, collectedItemId: row.id });
    server.app.services.charts.sourceChartsChanged("vvvdj");

    const { page, problems, charts } = await openHome({ width: 1280, height: 900 });
    await charts.getByRole("tablist", { name: "站点" }).getByRole("tab", { name: "清风DJ" }).click();
    await charts.getByRole("link", { name: "清风站点榜第一" }).waitFor();
    await expect.poll(() => boardTab(page, "清风DJ榜").getAttribute("aria-selected")).toBe("true");
    await boardTab(page, "本站播放").click();
    await charts.getByText("暂无榜单数据").waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
