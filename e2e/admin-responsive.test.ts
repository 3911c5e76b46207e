/**
 * The back office on any screen (issue 25, ADR 0064) in Chromium at 1440, 1024, 768 and 390 px:
 * no admin page scrolls sideways, the menu is 200 px, 64 px or a drawer, the suite list keeps its
 * 标题 readable with the row actions on screen; the frame paints before any script has run; and
 * the table features every admin table has (selection bar, column settings, density).
 * Screenshots in /tmp/shots-adm-responsive/.
 */
import { mkdirSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../server/db/sql";
import { createTestAdmin } from "../server/testing/admins";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-adm-responsive";
const WIDTHS = [1440, 1024, 768, 390] as const;

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let token: string;
let editorToken: string;
let suiteId: number;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer({ suites: 24 });
  const db = server.app.deps.database.db;
  ({ token } = await createTestAdmin(db, { role: "super", username: "responsive_boss" }));
  // A long account name: the admin list's names once wrapped one character a line at 768 px.
  ({ token: editorToken } = await createTestAdmin(db, { role: "editor", username: "editor_with_a_rather_long_account_name" }));
  [{ id: suiteId }] = (await queryRows<{ id: number }>(db, sql`select id from items where kind = 'mix' order by id desc limit 1`)) as [{ id: number }];
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Every screen of web/app/routes/panda (the login page has no admin layout). */
const SCREENS = () => [
  ["/panda/", "控制台"],
  ["/panda/block", "区块管理"],
  ["/panda/add", "添加套曲"],
  [`/panda/edit/${suiteId}`, "编辑套曲"],
  ["/panda/sutieList", "套曲列表"],
  ["/panda/sutieCategory", "套曲分类"],
  ["/panda/collectData", "采集数据"],
  ["/panda/userList", "用户列表"],
  ["/panda/comments", "评论管理"],
  ["/panda/sources", "来源管理"],
  ["/panda/plugins", "来源插件"],
  ["/panda/admins", "管理员"],
  ["/panda/audit", "审计日志"],
  ["/panda/settings", "站点设置"],
] as const;

async function signedIn(width: number, as = token): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: "zh-CN" });
  await context.addInitScript((t) => localStorage.setItem("admin_token", t), as);
  const page = await context.newPage();
  const problems = await watchProblems(page);
  return { context, page, problems };
}

/** The screen after the login check, its first answers and antd's animations. */
async function settled(page: Page) {
  await hydrated(page);
  await page.getByTestId("admin-skeleton").waitFor({ state: "detached" });
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(300);
}

const overflow = (page: Page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));

describe("the back office at 1440, 1024, 768 and 390 px", () => {
  // Each screen is loaded once, at 390 px (where a page most often grows sideways), and then
  // looked at 768, 1024 and 1440 px wide by resizing the window: the layout answers the width
  // through media queries and antd's breakpoint listeners alike. A fresh load at every width
  // (56 loads) took ~150 s of the suite; the menu below and "the first paint" still load fresh
  // at each width.
  it("no screen scrolls sideways at 390, 768, 1024 or 1440 px", async () => {
    const { context, page, problems } = await signedIn(390);
    for (const [path, title] of SCREENS()) {
      await page.setViewportSize({ width: 390, height: 900 });
      await page.goto(`${server.url}${path}`);
      await settled(page);
      await page.locator("main, .ant-layout-content").getByText(title, { exact: true }).first().waitFor();
      for (const width of [390, 768, 1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(async () => (await overflow(page)).scroll, { message: `${path} at ${width}` }).toBeLessThanOrEqual(width);
        if (path === "/panda/" || path === "/panda/sutieList") {
          await page.screenshot({ path: `${SHOTS}/${path === "/panda/" ? "dashboard" : "suite-list"}-${width}.png`, fullPage: true });
        }
      }
    }
    expect(problems).toEqual([]);
    await context.close();
  }, 300_000);

  for (const width of WIDTHS) {
    it(`the menu at ${width} px: 200 px, its icons (64 px) or a drawer`, async () => {
      const { context, page, problems } = await signedIn(width);
      await page.goto(`${server.url}/panda/sutieList`);
      await settled(page);
      const sider = page.getByTestId("admin-sider");
      if (width >= 768) {
        await expect.poll(async () => (await sider.boundingBox())?.width).toBe(width >= 1200 ? 200 : 64);
        // Folding after hydration once left the wide menu's groups open as popups, on top of the page.
        expect(await page.locator(".ant-menu-submenu-popup:visible").count()).toBe(0);
        expect(await page.getByTestId("admin-menu-button").isVisible()).toBe(false);
      } else {
        expect(await sider.count()).toBe(0);
        await page.getByRole("button", { name: "打开菜单" }).click();
        const drawer = page.locator(".ant-drawer-open");
        await drawer.getByRole("link", { name: "套曲分类" }).click();
        await page.waitForURL(`${server.url}/panda/sutieCategory`);
        await drawer.waitFor({ state: "detached" });
        await page.getByRole("heading", { name: "套曲分类" }).waitFor();
      }
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it("at 768 px the suite list's 标题 is at least 160 px wide and 编辑/禁用/删除 are on screen", async () => {
    const { context, page, problems } = await signedIn(768);
    await page.goto(`${server.url}/panda/sutieList`);
    await settled(page);
    const table = page.getByTestId("suite-table");
    const titleHead = table.locator("th", { hasText: "标题" }).first();
    await expect.poll(async () => (await titleHead.boundingBox())?.width).toBeGreaterThanOrEqual(160);
    const firstRow = table.locator("tr.ant-table-row").first();
    for (const name of ["编辑", "禁用", "删除"]) {
      const box = (await firstRow.getByRole("button", { name, exact: true }).boundingBox())!;
      expect(box.x, name).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, name).toBeLessThanOrEqual(768);
    }
    // The table scrolls inside itself: the other columns are one swipe away, the page stays put.
    const body = table.locator(".ant-table-content, .ant-table-body").first();
    await expect.poll(() => body.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect((await overflow(page)).scroll).toBeLessThanOrEqual(768);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("the first paint", () => {
  it("shows the header, the menu and a skeleton before any script has run", async () => {
    for (const width of [1440, 1024, 390]) {
      const { context, page } = await signedIn(width);
      // No script ever arrives: what shows is the server's HTML and its inlined styles alone.
      await page.route(/\.js(\?|$)/, (route) => route.abort());
      await page.goto(`${server.url}/panda/sutieList`, { waitUntil: "load" });
      await page.getByTestId("admin-skeleton").waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
      expect((await page.getByTestId("admin-skeleton").boundingBox())!.height).toBeGreaterThan(150);
      const header = await page.locator(".ant-layout-header").boundingBox();
      expect(header!.height).toBeGreaterThan(40);
      const sider = await page.getByTestId("admin-sider").boundingBox();
      if (width >= 1200) {
        expect(sider!.width).toBe(200);
        expect(await page.getByTestId("admin-sider").getByText("套曲列表", { exact: true }).isVisible()).toBe(true);
      } else if (width >= 768) expect(sider!.width).toBe(64);
      else {
        expect(sider).toBeNull();
        expect(await page.getByRole("button", { name: "打开菜单" }).isVisible()).toBe(true);
      }
      expect((await overflow(page)).scroll).toBeLessThanOrEqual(width);
      const fcp = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1);
      expect(fcp).toBeGreaterThan(0);
      await page.screenshot({ path: `${SHOTS}/first-paint-${width}.png` });
      await context.close();
    }
  }, 180_000);

  it("draws a 超级管理员's menu whole and an editor's without the super-only entries, before any script (ADR 0078)", async () => {
    const SUPER_ONLY = ["来源管理", "来源插件", "管理员", "审计日志", "用户列表"];
    for (const [who, as, isSuper] of [
      ["super", token, true],
      ["editor", editorToken, false],
    ] as const) {
      for (const width of [1440, 1024]) {
        const { context, page } = await signedIn(width, as);
        // A first visit: the login check names this session in the back office's cookie.
        await page.goto(`${server.url}/panda/sutieList`);
        await settled(page);
        const cookie = (await context.cookies()).find((c) => c.name === "panda_menu");
        expect(cookie, who).toMatchObject({ path: "/panda", httpOnly: true, sameSite: "Strict" });
        expect(cookie!.value).not.toBe(as);
        // The next load with no script at all: what shows is the server's drawing alone.
        await page.route(/\.js(\?|$)/, (route) => route.abort());
        await page.reload({ waitUntil: "load" });
        await page.getByTestId("admin-skeleton").waitFor();
        const sider = page.getByTestId("admin-sider");
        if (width >= 1200) {
          expect(await sider.getByText("套曲列表", { exact: true }).isVisible(), who).toBe(true);
          for (const label of SUPER_ONLY) expect(await sider.getByText(label, { exact: true }).isVisible(), `${who} ${label}`).toBe(isSuper);
          await page.screenshot({ path: `${SHOTS}/first-paint-${who}-${width}.png` });
        } else {
          // The folded menu: the groups' icons, 用户管理's only for a 超级管理员.
          await expect.poll(() => page.getByTestId("admin-mini-menu").locator("> span").count(), { message: who }).toBe(isSuper ? 3 : 2);
        }
        await context.close();
      }
    }
  }, 180_000);

  it("a guest still goes from the painted frame to /panda/login", async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, locale: "zh-CN" });
    const page = await context.newPage();
    await page.goto(`${server.url}/panda/sutieList`);
    await page.waitForURL(`${server.url}/panda/login`);
    await page.getByRole("heading", { name: "后台登录" }).waitFor();
    await context.close();
  });
});

describe("the admin tables' features", () => {
  it("selection bar with counts, column settings kept over a reload, and density", async () => {
    const { context, page, problems } = await signedIn(1440);
    await page.goto(`${server.url}/panda/sutieList`);
    await settled(page);
    const table = page.getByTestId("suite-table");
    const rows = table.locator("tr.ant-table-row");
    for (const i of [0, 1, 2]) await rows.nth(i).locator(".ant-checkbox-input").check();
    const bar = page.getByTestId("selection-bar");
    await expect.poll(() => bar.innerText()).toMatch(/^已选择\s*3\s*项/);
    // Its name also holds the icon's ("delete"): the label is matched as the text shown.
    await page.locator("button", { hasText: /^批量删除 \(3\)$/ }).waitFor();
    await page.screenshot({ path: `${SHOTS}/selection.png` });
    await bar.getByRole("button", { name: "清空" }).click();
    await bar.waitFor({ state: "detached" });
    await page.locator("button", { hasText: /^批量删除$/ }).waitFor();
    await expect.poll(() => rows.locator(".ant-checkbox-checked").count()).toBe(0);

    // Columns: hide 分类; the choice survives a reload.
    const heads = () => table.locator("thead th").allInnerTexts();
    expect(await heads()).toContain("分类");
    await page.getByRole("button", { name: "列设置" }).click();
    const settings = page.getByTestId("column-settings");
    await settings.getByRole("checkbox", { name: "分类" }).uncheck();
    await expect.poll(heads).not.toContain("分类");
    await page.screenshot({ path: `${SHOTS}/column-settings.png` });
    await page.reload();
    await settled(page);
    await expect.poll(heads).toContain("标题");
    expect(await heads()).not.toContain("分类");
    await page.getByRole("button", { name: "列设置" }).click();
    await settings.getByRole("button", { name: "重置" }).click();
    await expect.poll(heads).toContain("分类");
    await page.keyboard.press("Escape");

    // Density: 紧凑 is antd's small table.
    const rowHeight = async () => (await rows.first().boundingBox())!.height;
    const roomy = await rowHeight();
    await page.getByRole("button", { name: "密度" }).click();
    await page.getByRole("menuitem", { name: "紧凑" }).click();
    await expect.poll(() => table.locator(".ant-table-small").count()).toBe(1);
    await expect.poll(rowHeight).toBeLessThan(roomy);
    await page.reload();
    await settled(page);
    await expect.poll(() => table.locator(".ant-table-small").count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
