/**
 * The back office's suite list (issue 12, ADR 0028) in Debian's Chromium: an admin sees the
 * table, searches, filters by category, deletes two suites in one go, and they are gone from
 * the public site. Screenshots in /tmp/shots-adm-suites/.
 */
import { mkdirSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../server/db/sql";
import { createTestAdmin } from "../server/testing/admins";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-adm-suites";
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer({ suites: 24 });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const db = () => server.app.deps.database.db;
const rowIds = async (page: Page) =>
  (await page.locator("[data-testid=suite-table] tr.ant-table-row").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-row-key")))));
/** Waits until the table shows `total` rows in all (its 共 N 条). */
const waitTotal = (page: Page, total: number) => page.getByText(`共 ${total} 条`).waitFor();

describe("/panda/sutieList", () => {
  it("lists, searches, filters by category and batch-deletes, and the public site follows", async () => {
    const admin = await createTestAdmin(db(), { role: "editor" });
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 }, locale: "zh-CN" });
    const problems = await watchProblems(page);
    await page.addInitScript((token) => localStorage.setItem("admin_token", token), admin.token);

    const [{ n: suites }] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from items where kind = 'mix'`);
    await page.goto(`${server.url}/panda/sutieList`);
    await hydrated(page);
    await waitTotal(page, suites);
    const newest = await queryRows<{ id: number; title: string }>(db(), sql`select id, title from items where kind = 'mix' order by id desc limit 10`);
    await expect.poll(() => rowIds(page)).toEqual(newest.map((r) => r.id));
    await expect(page.locator("[data-testid=suite-table] .ant-tag").first().innerText()).resolves.toBe("正常");
    await page.screenshot({ path: `${SHOTS}/list.png`, fullPage: true });

    // Keyword: a word of the third-newest suite's title.
    const word = [...newest[2]!.title].slice(0, 2).join("");
    const [{ n: matching }] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from items where kind = 'mix' and lower(title) like ${`%${word.toLowerCase()}%`}`);
    await page.getByPlaceholder("搜索编号或标题").fill(word);
    await page.getByPlaceholder("搜索编号或标题").press("Enter");
    await waitTotal(page, matching);
    await expect.poll(() => rowIds(page)).toContain(newest[2]!.id);
    await page.screenshot({ path: `${SHOTS}/search.png`, fullPage: true });
    await page.getByPlaceholder("搜索编号或标题").fill("");
    await page.getByPlaceholder("搜索编号或标题").press("Enter");
    await waitTotal(page, suites);

    // Category: a branch of the menu (the parent and its children, channel_id IN).
    const [child] = await queryRows<{ id: number; name: string; n: number }>(
      db(),
      sql`select c.id, c.name, count(i.id)::int as n from categories c join items i on i.category_id = c.id and i.kind = 'mix'
           group by c.id, c.name order by count(i.id) desc, c.id limit 1`,
    );
    await page.getByRole("combobox", { name: "按分类筛选" }).click();
    await page.locator(".ant-select-dropdown .ant-select-item-option").first().waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/category-options.png`, fullPage: true });
    // A parent takes its children along (channel_id IN parent,children…).
    const [{ n: inBranch }] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from items i join categories c on c.id = i.category_id
           where i.kind = 'mix' and (c.diyname = 'chuanshao' or c.parent_id = (select id from categories where diyname = 'chuanshao'))`,
    );
    await page.locator(".ant-select-dropdown .ant-select-item-option").filter({ hasText: /^DJ串烧$/ }).click();
    await waitTotal(page, inBranch);
    await page.getByRole("combobox", { name: "按分类筛选" }).click();
    await page.locator(".ant-select-dropdown .ant-select-item-option").filter({ hasText: child!.name }).first().click();
    await waitTotal(page, child!.n);
    // The child's count may equal the branch's: the total alone does not tell the new rows are in.
    const channelCells = async () => new Set(await page.locator("[data-testid=suite-table] tr.ant-table-row td:nth-child(4)").allInnerTexts());
    await expect.poll(channelCells).toEqual(new Set([child!.name]));
    await page.screenshot({ path: `${SHOTS}/category.png`, fullPage: true });

    // Batch delete the first two of the filtered list.
    const [a, b] = (await rowIds(page)).slice(0, 2);
    for (const id of [a, b]) expect((await fetch(`${server.url}/sutie/${id}.html`)).status).toBe(200);
    for (const id of [a, b]) await page.locator(`tr[data-row-key="${id}"] .ant-checkbox-input`).check();
    await page.getByRole("button", { name: "批量删除" }).click();
    await page.getByText("确定删除选中的 2 条套曲吗？").waitFor();
    await page.waitForTimeout(400); // the popover's fade-in
    await page.screenshot({ path: `${SHOTS}/batch-confirm.png`, fullPage: true });
    await page.locator(".ant-popconfirm:visible").getByRole("button", { name: "删除", exact: true }).click();
    await page.getByText("批量删除成功").waitFor();
    await waitTotal(page, child!.n - 2);
    const after = await rowIds(page);
    expect(after).not.toContain(a);
    expect(after).not.toContain(b);
    for (const id of [a, b]) expect((await fetch(`${server.url}/sutie/${id}.html`)).status).toBe(404);
    await page.screenshot({ path: `${SHOTS}/after-delete.png`, fullPage: true });
    // The batch confirmation fades out after its delete: the row's own opens beside it otherwise.
    await expect.poll(() => page.locator(".ant-popconfirm:visible").count()).toBe(0);

    // One delete from its row, and disable another.
    const [c, d] = after;
    await page.locator(`tr[data-row-key="${c}"]`).getByRole("button", { name: "删除" }).click();
    await page.locator(".ant-popconfirm:visible").getByRole("button", { name: "删除", exact: true }).click();
    await page.getByText("删除成功", { exact: true }).waitFor();
    expect((await fetch(`${server.url}/sutie/${c}.html`)).status).toBe(404);
    await page.locator(`tr[data-row-key="${d}"]`).getByRole("button", { name: "禁用" }).click();
    await page.locator(`tr[data-row-key="${d}"]`).getByText("禁用", { exact: true }).first().waitFor();
    await page.locator(`tr[data-row-key="${d}"]`).getByRole("button", { name: "启用" }).waitFor();
    expect((await fetch(`${server.url}/sutie/${d}.html`)).status).toBe(404);
    await page.screenshot({ path: `${SHOTS}/disabled.png`, fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});
