import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { ROOT, startWebServer, watchProblems } from "./web-server";

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;

beforeAll(async () => {
  server = await startWebServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("category page", () => {
  it("is server-rendered with the category's SEO title, list and pager", async () => {
    const res = await fetch(`${server.url}/sort/chuanshao`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<title>DJ串烧_DJ串烧DJ舞曲免费在线试听 - DJ搜索引擎网<\/title>/);
    expect(html).toMatch(/rel="canonical" href="https?:\/\/[^"/]+\/sort\/chuanshao"/); // absolute (PUBLIC_URL)
    expect(html).toContain("排行榜");
    expect((html.match(/href="\/sutie\/\d+\.html"/g) ?? []).length).toBeGreaterThanOrEqual(10);
  });

  it("pages, sorts, switches layout and chart tabs in the browser", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
    const problems = await watchProblems(page);
    await page.goto(`${server.url}/sort/chuanshao`);
    await page.getByRole("heading", { level: 1 }).getByText("DJ串烧").waitFor();
    const firstPage = await page.locator("main ol li a").allInnerTexts();
    expect(firstPage).toHaveLength(10);

    await page.getByRole("link", { name: "下一页" }).click();
    await page.waitForURL(/page=2/);
    await page.getByText(/第 2 \/ \d+ 页/).waitFor();
    const secondPage = await page.locator("main ol li a").allInnerTexts();
    expect(secondPage.filter((t) => firstPage.includes(t))).toEqual([]);

    await page.getByRole("button", { name: "4列" }).click();
    await expect.poll(() => page.locator("main ul li img").count()).toBeGreaterThan(0);

    await page.getByRole("tab", { name: "单曲榜" }).click();
    await expect.poll(() => page.getByRole("tab", { name: "日榜" }).count()).toBe(0);
    await page.getByRole("tab", { name: "季榜" }).click();
    await expect.poll(() => page.getByRole("tab", { name: "季榜" }).getAttribute("aria-selected")).toBe("true");
    await page.screenshot({ path: path.join(ROOT, "test-results", "screens", "category.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("answers 404 分类不存在 for a missing category", async () => {
    const res = await fetch(`${server.url}/sort/no-such-category`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("分类不存在");
  });
});
