/**
 * The back office's categories, blocks and site settings in Debian's Chromium (issue 12): an
 * admin renames a category and sees the top navigation change, adds a carousel item (uploaded
 * picture) and sees it on the home page, changes the site title and sees it in the public
 * pages' <title>. Screenshots of each screen go to /tmp/shots-adm-content/.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../server/testing/admins";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-adm-content";
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let token: string;

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

async function adminPage(route: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 }, locale: "zh-CN" });
  const problems = await watchProblems(page);
  await page.addInitScript((t) => localStorage.setItem("admin_token", t), token);
  await page.goto(`${server.url}${route}`);
  await hydrated(page);
  return { page, problems };
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer();
  browser = await launchBrowser();
  token = (await createTestAdmin(server.app.deps.database.db, { role: "super", username: "content-boss" })).token;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("back office: categories, blocks, site settings", () => {
  it("renames a category: the public top navigation shows the new name on the next request", async () => {
    const { page, problems } = await adminPage("/panda/sutieCategory");
    const table = page.getByTestId("category-table");
    const row = table.locator("tr", { has: page.getByRole("cell", { name: "mange", exact: true }) });
    await row.waitFor();
    await shot(page, "categories");
    await row.getByRole("button", { name: "编辑" }).click();
    const form = page.getByTestId("category-form");
    await form.getByLabel("分类名称").fill("");
    await page.getByRole("button", { name: "保存" }).click();
    await form.getByText("请输入分类名称").waitFor();
    await form.getByLabel("分类名称").fill("抒情慢歌");
    // A negative sort is refused with the reason, never quietly saved as 0 (issue 25).
    const sort = form.getByLabel("排序");
    const sortBefore = await sort.inputValue();
    await sort.fill("-1");
    await sort.blur();
    expect(await sort.inputValue()).toBe("-1");
    await page.getByRole("button", { name: "保存" }).click();
    await form.getByText("排序必须是不小于 0 的整数").waitFor();
    await sort.fill(sortBefore);
    await shot(page, "category-dialog");
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("保存成功").waitFor();
    await table.getByRole("cell", { name: "抒情慢歌" }).waitFor();

    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain(">抒情慢歌<");
    const pub = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await pub.goto(`${server.url}/sort/mange`);
    await pub.getByRole("navigation").getByText("抒情慢歌").first().waitFor();
    await pub.close();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("refuses to delete a category that still has suites, with the reason", async () => {
    const { page, problems } = await adminPage("/panda/sutieCategory");
    const row = page.getByTestId("category-table").locator("tr", { has: page.getByRole("cell", { name: "manyao", exact: true }) });
    await row.getByRole("button", { name: "删除" }).click();
    await page.getByRole("button", { name: "删除", exact: true }).last().click();
    await page.getByText(/该分类下还有 \d+ 首套曲/).waitFor();
    await page.getByTestId("category-table").getByRole("cell", { name: "manyao", exact: true }).waitFor();
    // The refusal is a 400, which the browser reports as a failed resource; nothing else.
    expect(problems.filter((p) => !p.includes("status of 400"))).toEqual([]);
    await page.close();
  });

  it("drags a category onto another: it takes that place, and the public navigation follows (ADR 0065)", async () => {
    const { page, problems } = await adminPage("/panda/sutieCategory");
    const table = page.getByTestId("category-table");
    // Two top-level categories (上级分类 —), in the table's order: 排序 ascending, the menu's.
    const topLevel = table.locator("tbody tr.ant-table-row").filter({ has: page.getByRole("cell", { name: "—", exact: true }) });
    await topLevel.nth(1).waitFor();
    const nameOf = async (i: number) => (await topLevel.nth(i).locator("td a").first().textContent())!.trim();
    const [first, second] = [await nameOf(0), await nameOf(1)];
    const navOrder = async () => {
      const nav = (await (await fetch(`${server.url}/api/forntend/gettopnav`)).json()).data as { label: string }[];
      return nav.map((n) => n.label).filter((l) => l === first || l === second);
    };
    expect(await navOrder()).toEqual([first, second]);
    await topLevel.nth(1).dragTo(topLevel.nth(0));
    await page.getByText("排序已保存").waitFor();
    await expect.poll(navOrder).toEqual([second, first]);
    await expect.poll(() => nameOf(0)).toBe(second);
    await shot(page, "categories-dragged");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("adds a carousel item with an uploaded picture: the home page shows it", async () => {
    const picture = path.join(SHOTS, "upload.png");
    await sharp({ create: { width: 1500, height: 500, channels: 3, background: "#5b21b6" } })
      .composite([{ input: Buffer.from('<svg width="1500" height="500"><text x="80" y="300" font-size="160" fill="#fff">NEW PARTY</text></svg>'), top: 0, left: 0 }])
      .png()
      .toFile(picture);
    const { page, problems } = await adminPage("/panda/block");
    const row = page.getByTestId("block-table").locator("tr", { has: page.getByRole("cell", { name: "首页轮播", exact: true }) });
    await row.waitFor();
    await shot(page, "blocks");
    await row.getByRole("button", { name: "内容" }).click();
    await page.getByTestId("block-items").locator("tbody tr").first().waitFor();
    await page.getByRole("button", { name: "添加内容" }).click();
    const form = page.getByTestId("block-item-form");
    await form.locator('input[type="file"]').setInputFiles(picture);
    await page.getByText("上传成功").waitFor();
    await form.getByTestId("block-image-preview").waitFor();
    await form.getByLabel("名称").fill("周末新品派对");
    await form.getByLabel("链接地址").fill("/sort/chuanshao");
    await form.getByLabel("排序").fill("0");
    await shot(page, "block-item-dialog");
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("添加成功").waitFor();
    await page.getByTestId("block-items").getByText("周末新品派对", { exact: true }).waitFor();
    await shot(page, "block-items");

    const home = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await home.goto(`${server.url}/`);
    const slide = home.getByRole("img", { name: "周末新品派对" });
    await slide.waitFor({ state: "attached" });
    expect(await slide.getAttribute("src")).toMatch(/^\/uploads\/blocks\/.+\.webp$/);
    await home.close();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("changes the site title: the public pages' <title>, footer and partner text follow", async () => {
    const { page, problems } = await adminPage("/panda/settings");
    const form = page.getByTestId("settings-form");
    await form.waitFor();
    expect(await form.getByLabel("站点标题").inputValue()).toBe("DJ搜索引擎网");
    await shot(page, "settings");
    await form.getByLabel("站点标题").fill("DJ舞曲大全");
    await form.getByLabel("页脚").fill("本站只提供搜索\n© DJ舞曲大全 2026");
    await form.getByLabel("合作说明").fill("欢迎DJ站点交换友情链接");
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("保存成功").waitFor();

    const home = await (await fetch(`${server.url}/`)).text();
    expect(home).toContain("<title>DJ舞曲大全</title>");
    expect(home).toContain("© DJ舞曲大全 2026");
    expect(home).toContain("欢迎DJ站点交换友情链接");
    expect(await (await fetch(`${server.url}/login`)).text()).toContain("<title>登录 - DJ舞曲大全</title>");

    const pub = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await pub.goto(`${server.url}/`);
    await hydrated(pub);
    expect(await pub.title()).toBe("DJ舞曲大全");
    await pub.getByTestId("site-footer").getByText("© DJ舞曲大全 2026").waitFor();
    await shot(pub, "home-after");
    await pub.close();
    expect(problems).toEqual([]);
    await page.close();
  });
});
