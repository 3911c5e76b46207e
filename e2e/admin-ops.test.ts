/**
 * The back office's CSV exports and the audit trail in Chinese (ADR 0065), in Debian's Chromium:
 * an admin searches the suite list and clicks 导出CSV, and the download is a UTF-8 CSV with a BOM
 * holding exactly the suites found; the audit screen names that export 导出套曲, and shows a
 * settings change with Chinese field names and the footer's lines as lines. A suite deleted from
 * the list waits in 回收站 (gone from its public page) and comes back on 还原.
 * Screenshots in /tmp/shots-adm-export/.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../server/db/sql";
import { createTestAdmin } from "../server/testing/admins";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-adm-export";
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

describe("导出CSV and the audit trail in Chinese", () => {
  it("downloads the searched suites as a CSV Excel reads; the audit screen names the export and shows lines as lines", async () => {
    const admin = await createTestAdmin(db(), { role: "super", username: "export_boss" });
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: "zh-CN", acceptDownloads: true });
    const page = await context.newPage();
    const problems = await watchProblems(page);
    await page.addInitScript((token) => localStorage.setItem("admin_token", token), admin.token);

    // A footer of two lines, changed through the API as the settings screen does.
    const footer = "第一行：本站只提供搜索\n第二行：下载在来源站点";
    const saved = await server.app.inject({ method: "PUT", url: "/api/pandaadmin/settings", headers: admin.headers, payload: { title: "DJ搜索引擎网", footer } });
    expect(saved.json().code).toBe(1);

    await page.goto(`${server.url}/panda/sutieList`);
    await hydrated(page);
    const [{ title }] = await queryRows<{ title: string }>(db(), sql`select title from items where kind = 'mix' order by id desc limit 1`);
    const word = [...title].slice(0, 2).join("");
    const matching = await queryRows<{ id: number }>(db(), sql`select id from items where kind = 'mix' and strpos(lower(title), ${word.toLowerCase()}) > 0 order by id desc`);
    await page.getByPlaceholder("搜索编号或标题").fill(word);
    await page.getByPlaceholder("搜索编号或标题").press("Enter");
    await page.getByText(`共 ${matching.length} 条`).waitFor();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-suites").click()]);
    expect(download.suggestedFilename()).toMatch(/^套曲-\d{4}-\d{2}-\d{2}\.csv$/u);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
    expect(lines[0]).toBe("编号,标题,分类,分类编号,状态,价格（币）,播放次数,评论数,发布时间,添加时间,更新时间,地址");
    expect(lines.slice(1).map((l) => Number(l.split(",")[0]))).toEqual(matching.map((r) => r.id));
    await page.getByText("导出完成").waitFor();
    await page.screenshot({ path: `${SHOTS}/suites-exported.png`, fullPage: true });

    await page.goto(`${server.url}/panda/audit`);
    await hydrated(page);
    const audit = page.getByTestId("audit-table");
    const exported = audit.getByRole("row").filter({ hasText: "suite.export" });
    await exported.getByText("导出套曲").waitFor();
    await exported.locator(".ant-table-row-expand-icon").click();
    const query = page.getByTestId("audit-change").first();
    await query.getByText("查询条件").waitFor();
    expect(await query.textContent()).toContain(word);

    const settings = audit.getByRole("row").filter({ hasText: "settings.update" });
    await settings.getByText("修改设置").waitFor();
    await settings.locator(".ant-table-row-expand-icon").click();
    const change = page.getByTestId("audit-change").filter({ hasText: "页脚" });
    await change.waitFor();
    // The changed footer's cell holds its two lines, not a JSON string with \n in it.
    const cell = change.locator("tr", { hasText: "页脚" }).locator("pre").nth(1);
    expect(await cell.innerText()).toBe(footer);
    expect(await change.textContent()).not.toContain("\\n");
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/audit.png`, fullPage: true });

    // The audit trail exports too, named in Chinese.
    const [auditFile] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-audit").click()]);
    expect(auditFile.suggestedFilename()).toMatch(/^审计日志-\d{4}-\d{2}-\d{2}\.csv$/u);
    expect(readFileSync((await auditFile.path())!).subarray(3).toString("utf8")).toContain("导出套曲");
    expect(problems).toEqual([]);
    await context.close();
  });
  it("a deleted suite waits in 回收站, its page gone, and 还原 brings it back", async () => {
    const admin = await createTestAdmin(db(), { role: "editor" });
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: "zh-CN" });
    const page = await context.newPage();
    const problems = await watchProblems(page);
    await page.addInitScript((token) => localStorage.setItem("admin_token", token), admin.token);
    const [{ id, title }] = await queryRows<{ id: number; title: string }>(db(), sql`select id, title from items where kind = 'mix' and deleted_at is null order by id desc limit 1`);
    expect((await fetch(`${server.url}/sutie/${id}.html`)).status).toBe(200);

    await page.goto(`${server.url}/panda/sutieList`);
    await hydrated(page);
    const table = page.getByTestId("suite-table");
    const row = table.locator(`tr[data-row-key="${id}"]`);
    await row.getByRole("button", { name: "删除" }).click();
    await page.locator(".ant-popconfirm:visible").getByRole("button", { name: "删除", exact: true }).click();
    await page.getByText("删除成功").waitFor();
    await row.waitFor({ state: "detached" });
    expect((await fetch(`${server.url}/sutie/${id}.html`)).status).toBe(404);

    await page.getByTestId("suite-bin-switch").getByText("回收站").click();
    await row.waitFor();
    expect(await row.textContent()).toContain(title);
    await row.getByText("已删除").waitFor();
    // When it was deleted, and how long it waits before the daily sweep purges it.
    await expect.poll(() => row.getByTestId("purge-in").textContent()).toBe("30 天后彻底删除");
    await expect.poll(() => row.textContent()).toMatch(/已删除30 天后彻底删除\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}还原/);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/recycle-bin.png`, fullPage: true });
    await row.getByRole("button", { name: "还原" }).click();
    await page.getByText("还原成功").waitFor();
    await row.waitFor({ state: "detached" });
    expect((await fetch(`${server.url}/sutie/${id}.html`)).status).toBe(200);

    await page.getByTestId("suite-bin-switch").getByText("全部套曲").click();
    await row.waitFor();
    await row.getByText("正常").waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
