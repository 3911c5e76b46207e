/**
 * 来源管理 and 来源插件 as admin tables (ADR 0078), in Chromium: the selection bar and its batch
 * actions (批量启用/停用 of sources and plugins, 批量检测 of sources: DJUU on a working fixture
 * site, 172Mix and 清风DJ on a closed port), 本站 not selectable, column settings kept over a
 * reload; and at 390 px the admin tables' toolbar as two deliberate rows: the keyword box, then
 * one line of actions that scrolls sideways beside the fixed settings. Screenshots in
 * test-results/screenshots/admin-source-tables/ (SHOTS_DIR overrides).
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_ACTOR } from "../server/modules/audit/service";
import { yedianPlugin } from "../server/modules/plugins/testing/yedian";
import { serveCanarySite } from "../server/modules/sources/canary/canary.fixtures";
import { applyExternalSources } from "../server/modules/sources/builtin-switches";
import { createSourceAdapters } from "../server/modules/sources/registry";
import { createTestAdmin } from "../server/testing/admins";
import { startFixtureSite, type FixtureSite } from "../server/testing/fixture-site";
import { hydrated, launchBrowser } from "./browser";
import { ROOT, startWebServer, watchProblems } from "./web-server";

const DJUU_CONFIG = JSON.parse(readFileSync(new URL("../server/modules/sources/adapters/djuu.generic.json", import.meta.url), "utf8")) as Record<string, unknown>;
const SHOTS = process.env.SHOTS_DIR ?? path.join(ROOT, "test-results", "screenshots", "admin-source-tables");

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let token: string;
let closeSources = () => {};
const sites: FixtureSite[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const working = await startFixtureSite();
  serveCanarySite(working).mode("ok");
  const closed = await startFixtureSite();
  const closedUrl = closed.url;
  await closed.close();
  sites.push(working);
  const built = createSourceAdapters({
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: { warn: () => {} },
    overrides: {
      djuu: { baseUrl: working.url, apiBaseUrl: `${working.url}/app/v1`, allowAddresses: [working.host], extraMediaHosts: [working.host], minIntervalMs: 0 },
      "172minx": { baseUrl: closedUrl, allowAddresses: ["127.0.0.1"], minIntervalMs: 0 },
      vvvdj: { baseUrl: closedUrl, allowAddresses: ["127.0.0.1"], minIntervalMs: 0 },
    },
  });
  closeSources = built.close;
  server = await startWebServer({ suites: 4 }, { sourceAdapters: built.sources, sourceNetwork: { allowAddresses: [working.host] } });
  await applyExternalSources(server.app.services, ["djuu", "172minx", "vvvdj"], { info: () => {} });
  const admin = await createTestAdmin(server.app.deps.database.db, { role: "super", username: "tables_boss" });
  token = admin.token;
  // A generic source: its row has all four actions (删除 too).
  const mirror = { ...DJUU_CONFIG, code: "mirror", name: "镜像DJ", baseUrl: working.url, bases: { api: `${working.url}/app/v1` }, hosts: [working.host], minIntervalMs: 0 };
  const put = await server.app.inject({ method: "PUT", url: "/api/pandaadmin/sources/mirror", headers: admin.headers, payload: mirror });
  expect(put.statusCode, put.body).toBe(201);
  // Two plugins, switched off as installed (their site is never asked: only their switches are used).
  const plugin = yedianPlugin("1.0.0", "http://127.0.0.1:9");
  await server.app.services.plugins.admin.installFile(SITE_ACTOR, plugin);
  await server.app.services.plugins.admin.installFile(SITE_ACTOR, plugin.replaceAll("夜店DJ", "舞曲吧"));
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  closeSources();
  for (const site of sites) await site.close();
});

async function open(path: string, width: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: "zh-CN" });
  await context.addInitScript((t) => localStorage.setItem("admin_token", t), token);
  const page = await context.newPage();
  const problems = await watchProblems(page);
  await page.goto(`${server.url}${path}`);
  await settled(page);
  return { context, page, problems };
}

async function settled(page: Page) {
  await hydrated(page);
  await page.getByTestId("admin-skeleton").waitFor({ state: "detached" });
  await page.waitForLoadState("networkidle");
}

/** 列设置 hides column `hidden` of the table; after a reload (once `shown` is back) it is still hidden. */
async function hidesOverReload(page: Page, testId: string, hidden: string, shown: string) {
  const heads = () => page.getByTestId(testId).locator("thead th").allInnerTexts();
  await page.getByRole("button", { name: "列设置" }).click();
  await page.getByTestId("column-settings").getByRole("checkbox", { name: hidden }).uncheck();
  await expect.poll(heads).not.toContain(hidden);
  await page.reload();
  await settled(page);
  await expect.poll(heads).toContain(shown);
  expect(await heads()).not.toContain(hidden);
}

const toast = (page: Page, text: string) => page.locator(".ant-message-notice").getByText(text).first().waitFor();
/** The label of a button as shown (its accessible name may also hold an icon's). */
const button = (page: Page, text: RegExp) => page.locator("button", { hasText: text });

describe("来源管理 and 来源插件 as admin tables", () => {
  it("来源管理: selection bar, 批量停用/启用, 批量检测, 本站 not selectable, column settings kept", async () => {
    const { context, page, problems } = await open("/panda/sources", 1440);
    const table = page.getByTestId("source-table");
    const row = (code: string) => table.locator("tr.ant-table-row", { has: page.getByText(code, { exact: true }) });
    const pick = async (...codes: string[]) => {
      for (const code of codes) await row(code).locator(".ant-checkbox-input").check();
    };
    const switchOf = (code: string) => row(code).getByRole("switch").getAttribute("aria-checked");
    await row("djuu").waitFor();
    expect(await row("local").locator(".ant-checkbox-input").isDisabled()).toBe(true);
    // A plugin's source says so, switched off as installed, and leads to 来源插件.
    const pluginTag = row("p-yediandj").locator("[data-source-plugin]");
    expect(await pluginTag.innerText()).toBe("插件");
    expect(await pluginTag.getAttribute("href")).toBe("/panda/plugins");
    // The row actions fit their fixed column: a generic source's 删除 is not cut off.
    const actionsCell = (await row("mirror").locator("td").last().boundingBox())!;
    const remove = (await row("mirror").getByRole("button", { name: "删除" }).boundingBox())!;
    expect(remove.x + remove.width).toBeLessThanOrEqual(actionsCell.x + actionsCell.width);

    await pick("djuu", "172minx");
    const bar = page.getByTestId("selection-bar");
    await expect.poll(() => bar.innerText()).toMatch(/^已选择\s*2\s*项/u);
    await page.screenshot({ path: `${SHOTS}/sources-selected-1440.png` });
    await button(page, /^批量停用 \(2\)$/u).click();
    await toast(page, "已停用 2 个来源");
    await bar.waitFor({ state: "detached" });
    await expect.poll(() => switchOf("djuu")).toBe("false");
    expect(await switchOf("172minx")).toBe("false");
    expect(await switchOf("vvvdj")).toBe("true");
    await pick("djuu", "172minx");
    await button(page, /^批量启用 \(2\)$/u).click();
    await toast(page, "已启用 2 个来源");
    await expect.poll(() => switchOf("djuu")).toBe("true");
    expect(await switchOf("172minx")).toBe("true");

    // 批量检测: each row's canary, a summary of the verdicts.
    await pick("djuu", "172minx", "vvvdj");
    await button(page, /^批量检测 \(3\)$/u).click();
    await toast(page, "已检测 3 个来源：正常 1 个，站点故障 2 个");
    await expect.poll(() => table.locator('[data-source-canary="djuu"]').getAttribute("data-canary-state")).toBe("ok");
    expect(await table.locator('[data-source-canary="172minx"]').getAttribute("data-canary-state")).toBe("outage");
    expect(await table.locator('[data-source-canary="vvvdj"]').getAttribute("data-canary-state")).toBe("outage");
    await page.screenshot({ path: `${SHOTS}/sources-checked-1440.png` });

    await hidesOverReload(page, "source-table", "健康", "巡检");
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("来源插件: 批量启用/停用 of the selected plugins, column settings kept", async () => {
    const { context, page, problems } = await open("/panda/plugins", 1440);
    const table = page.getByTestId("plugin-table");
    const rows = table.locator("tr.ant-table-row");
    await rows.nth(1).waitFor();
    const switches = () => rows.getByRole("switch").evaluateAll((els) => els.map((e) => e.getAttribute("aria-checked")));
    expect(await switches()).toEqual(["false", "false"]);
    await table.locator("thead .ant-checkbox-input").check();
    await expect.poll(() => page.getByTestId("selection-bar").innerText()).toMatch(/^已选择\s*2\s*项/u);
    await button(page, /^批量启用 \(2\)$/u).click();
    await toast(page, "已启用 2 个插件");
    await expect.poll(switches).toEqual(["true", "true"]);
    await page.screenshot({ path: `${SHOTS}/plugins-enabled-1440.png`, fullPage: true });
    await rows.nth(0).locator(".ant-checkbox-input").check();
    await button(page, /^批量停用 \(1\)$/u).click();
    await toast(page, "已停用 1 个插件");
    await expect.poll(switches).toEqual(["false", "true"]);

    await hidesOverReload(page, "plugin-table", "能力", "版本");
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});

describe("the admin tables' toolbar at 390 px", () => {
  // [path, table, name, a keyword box, filters of its own, more actions than fit]
  const SCREENS = [
    ["/panda/sources", "source-table", "sources", false, false, true],
    ["/panda/plugins", "plugin-table", "plugins", false, false, true],
    ["/panda/sutieList", "suite-table", "suites", true, true, true],
    ["/panda/audit", "audit-table", "audit", false, true, false],
    ["/panda/comments", "comment-table", "comments", true, true, true],
  ] as const;

  it("deliberate rows: the keyword box, the filters wrapped, then one line of actions that scrolls, the settings fixed beside it", async () => {
    for (const [path, testId, name, hasSearch, hasFilters, scrolls] of SCREENS) {
      const { context, page, problems } = await open(path, 390);
      const block = page.getByTestId(testId);
      const actions = block.getByTestId("admin-toolbar-actions");
      await actions.waitFor();
      const line = (await actions.boundingBox())!;
      // One line of buttons (32 px and its focus ring's room), never several ragged ones.
      expect(line.height, name).toBeLessThanOrEqual(40);
      expect(await actions.evaluate((el) => el.scrollWidth > el.clientWidth), name).toBe(scrolls);
      expect(await actions.getAttribute("data-more-end"), name).toBe(String(scrolls));
      for (const label of ["密度", "列设置"]) {
        const box = (await block.getByRole("button", { name: label }).boundingBox())!;
        expect(box.x + box.width, `${name} ${label}`).toBeLessThanOrEqual(390);
        expect(Math.abs(box.y + box.height / 2 - (line.y + line.height / 2)), `${name} ${label}`).toBeLessThan(4);
      }
      // The keyword box, when the table has one, is the row above; the screen's filters, when it has
      // some, a block between that wraps: every one of them on screen, none in the scrolled line.
      const rows = block.getByTestId("admin-toolbar-phone").locator("> div");
      expect(await rows.count(), name).toBe(1 + Number(hasSearch) + Number(hasFilters));
      if (hasSearch) {
        const box = (await rows.first().locator(".ant-input-search").boundingBox())!;
        expect(box.y + box.height, name).toBeLessThanOrEqual(line.y);
        expect(box.width, name).toBeGreaterThan(280);
      }
      if (hasFilters) {
        const filters = block.getByTestId("admin-toolbar-filters").locator("> *");
        expect(await filters.count(), name).toBeGreaterThanOrEqual(1);
        for (const box of await Promise.all((await filters.all()).map(async (f) => (await f.boundingBox())!))) {
          expect(box.x, name).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, name).toBeLessThanOrEqual(390);
          expect(box.width, name).toBeGreaterThanOrEqual(140);
          expect(box.y + box.height, name).toBeLessThanOrEqual(line.y);
        }
      }
      await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
      if (!scrolls) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(390);
        expect(problems, name).toEqual([]);
        await context.close();
        continue;
      }
      // The row's last button comes into view when it is scrolled; the page itself never moves sideways.
      await actions.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await expect.poll(() => actions.getAttribute("data-more-start"), { message: name }).toBe("true");
      expect(await actions.getAttribute("data-more-end"), name).toBe("false");
      const refresh = (await block.getByRole("button", { name: "刷新" }).boundingBox())!;
      expect(refresh.x, name).toBeGreaterThanOrEqual(0);
      expect(refresh.x + refresh.width, name).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${SHOTS}/${name}-390-scrolled.png` });
      expect(problems, name).toEqual([]);
      await context.close();
    }
  }, 180_000);

  it("a desktop's toolbar is the wrapping row it was", async () => {
    const { context, page } = await open("/panda/sources", 1440);
    expect(await page.getByTestId("admin-toolbar-phone").count()).toBe(0);
    const toolbar = page.getByTestId("source-table").locator("> div").first();
    expect((await toolbar.boundingBox())!.height).toBeLessThanOrEqual(40);
    await page.screenshot({ path: `${SHOTS}/sources-1440.png`, fullPage: true });
    await context.close();
  });
});
