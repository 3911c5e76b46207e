import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launchBrowser } from "./browser";
import { ROOT, startWebServer, watchProblems } from "./web-server";

const SCREENS = path.join(ROOT, "test-results", "screens");

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;

beforeAll(async () => {
  server = await startWebServer({ suites: 40, singles: 30, plays: 3000 });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openHome(viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport, locale: "zh-CN" });
  const problems = await watchProblems(page);
  const searches: string[] = [];
  page.on("request", (req) => {
    if (req.url().includes("/api/forntend/indexsearch")) searches.push(decodeURIComponent(req.url()));
  });
  await page.goto(`${server.url}/`);
  await hydrated(page);
  return { page, problems, searches };
}

const search = (page: Page) => page.getByRole("search");
const results = (page: Page) => page.locator("[aria-live=polite] ol li");

async function searchFor(page: Page, keyword: string) {
  await search(page).getByLabel("搜索关键词").fill(keyword);
  await search(page).getByRole("button", { name: "搜索" }).click();
  await page.getByText(`“${keyword}” 找到`).waitFor();
}

describe("home page", () => {
  it("is server-rendered with its SEO texts, carousel, lists, charts and partner logos", async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<title>DJ搜索引擎网</title>");
    expect(html).toMatch(/rel="canonical" href="https?:\/\/[^"/]+\/"/); // absolute (PUBLIC_URL)
    expect(html).toMatch(/<meta name="description" content="DJ搜索引擎网[^"]+"/);
    expect(html).toMatch(/<img[^>]+src="\/media\/[^"]*banner[^"]*"[^>]*fetchPriority="high"|<img[^>]+fetchPriority="high"[^>]+banner/i);
    expect(html).toContain("最新DJ串烧");
    expect(html).toContain('href="/sort/chuanshao"');
    expect(html).toContain("合作站点");
    expect((html.match(/href="\/sutie\/\d+\.html"/g) ?? []).length).toBeGreaterThan(30);
    // The charts were built from the seeded plays: the panel lists items, not its empty text.
    expect(html).not.toContain("暂无榜单数据");
  });

  it("warns on a blank keyword without a request, finds 夜曲 and zjl, pages past five results", async () => {
    const { page, problems, searches } = await openHome();
    await search(page).getByRole("button", { name: "搜索" }).click();
    await page.getByText("请输入搜索关键词").waitFor();
    await search(page).getByLabel("搜索关键词").fill("   ");
    await search(page).getByLabel("搜索关键词").press("Enter");
    expect(searches).toEqual([]);

    await searchFor(page, "夜曲");
    const names = await results(page).allInnerTexts();
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.includes("夜曲"))).toBe(true);
    expect(searches.at(-1)).toMatch(/keyword=夜曲&page=1&limit=5&type=mp3/);

    await searchFor(page, "zjl");
    expect((await results(page).allInnerTexts()).some((n) => n.includes("周杰伦"))).toBe(true);

    await searchFor(page, "串烧");
    const first = await results(page).allInnerTexts();
    expect(first).toHaveLength(5);
    const pager = page.getByRole("navigation", { name: "搜索结果分页" });
    await pager.getByText(/第 1 \/ \d+ 页/).waitFor();
    await pager.getByRole("button", { name: "下一页" }).click();
    await pager.getByText(/第 2 \/ \d+ 页/).waitFor();
    const second = await results(page).allInnerTexts();
    expect(second.filter((n) => first.includes(n))).toEqual([]);

    // One site and video only: the request says so.
    await search(page).getByLabel("搜索来源").selectOption("djuu");
    await search(page).getByRole("radio", { name: "视频" }).click();
    await searchFor(page, "DJ");
    expect(searches.at(-1)).toMatch(/type=mp4&channelid=djuu/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a visitor's way: search 夜曲, open the hit, see its file tree; a category's 'more', page it, open a suite", async () => {
    const { page, problems } = await openHome();
    await searchFor(page, "夜曲");
    const hit = results(page).filter({ hasText: "串烧" }).first().getByRole("link");
    const name = await hit.innerText();
    await hit.click();
    await page.waitForURL(/\/sutie\/\d+\.html$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toContain(name);
    await expect.poll(() => page.getByRole("treeitem").count()).toBeGreaterThan(1);

    await page.getByRole("link", { name: "首页", exact: true }).first().click();
    await page.getByRole("link", { name: "更多DJ串烧" }).click();
    await page.waitForURL(`${server.url}/sort/chuanshao`);
    await page.getByRole("link", { name: "下一页" }).click();
    await page.waitForURL(/page=2/);
    await page.getByText(/第 2 \/ \d+ 页/).waitFor();
    const item = page.locator("main ol li a").first();
    const title = await item.innerText();
    await item.click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toContain(title);
    await page.getByRole("tree").waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the server's msg, or 搜索失败 when there is no answer", async () => {
    const { page } = await openHome();
    // `**`: the streamed search (/indexsearch/stream) too; refused before its first event, the page asks the merged route.
    await page.route("**/api/forntend/indexsearch**", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ code: 0, msg: "搜索服务繁忙", data: null }) }),
    );
    await search(page).getByLabel("搜索关键词").fill("夜曲");
    await search(page).getByRole("button", { name: "搜索" }).click();
    await page.getByText("搜索服务繁忙").waitFor();
    await page.unroute("**/api/forntend/indexsearch**");
    await page.route("**/api/forntend/indexsearch**", (route) => route.abort());
    await search(page).getByRole("button", { name: "搜索" }).click();
    await page.getByText("搜索失败").waitFor();
    await page.close();
  });

  it("switches chart tabs and the recommend/favourites tabs, and links to category pages", async () => {
    const { page, problems } = await openHome();
    const charts = page.getByRole("complementary", { name: "排行榜" });
    const weekMixes = await charts.locator("ol li").allInnerTexts();
    expect(weekMixes.length).toBeGreaterThan(0);
    // Only the first chart comes with the page; the others are fetched when chosen.
    const names = () => charts.locator("ol li a").allInnerTexts();
    const rank = async (type: string, period: string) =>
      ((await (await fetch(`${server.url}/api/forntend/getrank?site=djuu&type=${type}&period=${period}`)).json()).data.list as { name: string }[])
        .slice(0, 10)
        .map((i) => i.name);
    await charts.getByRole("tab", { name: "单曲榜" }).click();
    const weekSingles = await rank("single", "week");
    expect(weekSingles.length).toBeGreaterThan(0);
    await expect.poll(names).toEqual(weekSingles);
    expect(weekSingles).not.toEqual(weekMixes);
    await charts.getByRole("tab", { name: "季榜" }).click();
    await expect.poll(() => charts.getByRole("tab", { name: "季榜" }).getAttribute("aria-selected")).toBe("true");
    await expect.poll(names).toEqual(await rank("single", "quarter"));
    // A chart that cannot be fetched says so, and the others still switch.
    await page.route("**/api/forntend/getrank**", (route) => route.fulfill({ status: 500, contentType: "application/json", body: '{"code":0,"msg":"服务器内部错误"}' }));
    await charts.getByRole("tab", { name: "月榜" }).click();
    await charts.getByText("榜单加载失败，请稍后再试").waitFor();
    await charts.getByRole("tab", { name: "季榜" }).click();
    await expect.poll(names).toEqual(await rank("single", "quarter"));
    await page.unroute("**/api/forntend/getrank**");
    expect(problems.splice(0)).toEqual(["console.error: Failed to load resource: the server responded with a status of 500 (Internal Server Error)"]);

    const tabs = page.getByRole("tablist", { name: "推荐与收藏" });
    const box = page.locator("section", { has: tabs });
    const recommended = await box.locator("li").allInnerTexts();
    await tabs.getByRole("tab", { name: "收藏" }).click();
    await expect.poll(() => box.locator("li").allInnerTexts()).not.toEqual(recommended);

    await page.screenshot({ path: path.join(SCREENS, "home-full.png"), fullPage: true });
    await page.getByRole("link", { name: "更多DJ串烧" }).click();
    await page.waitForURL(`${server.url}/sort/chuanshao`);
    await page.goBack();
    await page.getByRole("navigation", { name: "分类" }).getByRole("link", { name: "慢摇串烧" }).click();
    await page.waitForURL(`${server.url}/sort/manyao`);
    await page.getByRole("heading", { level: 1 }).getByText("慢摇串烧").waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("says 网络连接失败 when the home data cannot be fetched", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
    await page.goto(`${server.url}/sort/manyao`);
    await hydrated(page);
    await page.route("**/*.data*", (route) => route.abort("internetdisconnected"));
    await page.getByRole("navigation", { name: "主导航" }).getByRole("link", { name: "首页", exact: true }).click();
    await page.getByText("网络连接失败，请检查您的网络连接").waitFor();
    await page.close();
  });

  it("fits a phone screen", async () => {
    const { page } = await openHome({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SCREENS, "home-mobile.png"), fullPage: true });
    await page.close();
  });
});
