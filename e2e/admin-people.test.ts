/**
 * The back office's people and content screens in Debian's Chromium against the real app
 * (issue 12): a 超级管理员 disables a member, who is logged out at once (their next page is the
 * login); an admin processes a collected item into a suite and sees it on the public site; the
 * comments and sources screens. Screenshots under /tmp/shots-adm-people/.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectedItems, users } from "../server/db/schema/index";
import { createTestAdmin } from "../server/testing/admins";
import { insertCollected } from "../server/testing/collected";
import { html, startFixtureSite, type FixtureSite } from "../server/testing/fixture-site";
import { createTestUser, type TestUser } from "../server/testing/users";
import { searchPage, serveDjuu } from "../server/modules/sources/adapters/djuu.fixtures";
import { djuuEntry, serveCollectDjuu } from "../server/modules/collect/collect.fixtures";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-adm-people";
const DJUU_CONFIG = JSON.parse(readFileSync(new URL("../server/modules/sources/adapters/djuu.generic.json", import.meta.url), "utf8")) as Record<string, unknown>;
const COLLECTED_TITLE = "采集测试夜曲(DJ阿福 Remix)";
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let adminToken: string;
let member: TestUser;
/** A djuu-like fixture site, configured in the sources screen as the generic source 镜像DJ. */
let site: FixtureSite;
/** The collector's djuu (a fixture, slow enough to watch the progress) as the source in use. */
let collectSite: FixtureSite;
let djuu: ReturnType<typeof djuuEntry>;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  site = await startFixtureSite();
  site.route("/search", html(searchPage()));
  serveDjuu(site);
  collectSite = serveCollectDjuu(await startFixtureSite(), { latencyMs: 120, failures: false });
  djuu = djuuEntry(collectSite, { timeoutMs: 5_000 });
  server = await startWebServer({ suites: 4, singles: 4 }, { sourceNetwork: { allowAddresses: [site.host] }, sourceAdapters: [djuu.entry] });
  const db = server.app.deps.database.db;
  adminToken = (await createTestAdmin(db, { role: "super", username: "boss" })).token;
  member = await createTestUser(server.app, { username: "disco_fan", nickname: "迪斯科迷", coins: 8 });
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.close();
  await site?.close();
  djuu?.close();
  await collectSite?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
/** 4xx answers some steps expect are logged by Chromium as console errors; nothing else may be. */
const unexpected = (problems: string[]) => problems.filter((p) => !/Failed to load resource: the server responded with a status of 401\b/u.test(p));

async function openPage(token: { key: string; value: string }): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: "zh-CN" });
  contexts.push(context);
  await context.addInitScript(({ key, value }) => localStorage.setItem(key, value), token);
  const page = await context.newPage();
  const problems = await watchProblems(page);
  return { page, problems };
}
const adminPage = () => openPage({ key: "admin_token", value: adminToken });

describe("the back office's people and content screens", () => {
  it("disables a member, who is then logged out: their next page shows the login", async () => {
    const { page: memberTab, problems: memberProblems } = await openPage({ key: "token", value: member.token });
    await memberTab.goto(`${server.url}/user/profile`);
    await hydrated(memberTab);
    await memberTab.getByText("迪斯科迷").first().waitFor();
    expect(memberTab.url()).toBe(`${server.url}/user/profile`);

    const { page, problems } = await adminPage();
    await page.goto(`${server.url}/panda/userList`);
    await hydrated(page);
    const table = page.getByTestId("user-table");
    await table.getByText("disco_fan", { exact: true }).waitFor();
    await page.getByPlaceholder("用户名 / 邮箱 / 昵称 / ID").fill("disco");
    await page.getByRole("button", { name: "搜索" }).click();
    await expect.poll(() => table.locator("tbody tr.ant-table-row").count()).toBe(1);
    await shot(page, "users-list");

    // The edit dialog with the member's fields.
    await table.getByRole("button", { name: "编辑" }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.getByLabel("金币").inputValue()).toBe("8");
    // A field the rules refuse: its message under the field, nothing saved, no uncaught error (problems, below).
    const email = dialog.getByLabel("邮箱");
    const emailBefore = await email.inputValue();
    await email.fill("not-an-email");
    await dialog.getByRole("button", { name: "保存" }).click();
    await dialog.locator(".ant-form-item-explain-error").first().waitFor();
    await email.fill(emailBefore);
    await dialog.getByLabel("金币").fill("20");
    await shot(page, "users-edit");
    await dialog.getByRole("button", { name: "保存" }).click();
    await page.getByText("保存成功").waitFor();
    await table.locator("td", { hasText: /^20$/u }).waitFor();

    await table.getByRole("button", { name: "下载记录(0)" }).click();
    await page.getByText("disco_fan 的下载记录").waitFor();
    await shot(page, "users-downloads");
    await page.locator(".ant-drawer-close").click();

    await table.getByRole("button", { name: "禁用" }).click();
    await page.getByRole("button", { name: "确 定" }).or(page.getByRole("button", { name: "确定" })).first().click();
    await page.getByText("已禁用，该用户已被强制下线").waitFor();
    await table.locator(".ant-tag", { hasText: "禁用" }).waitFor();
    await shot(page, "users-disabled");
    const row = (await server.app.deps.database.db.select().from(users).where(eq(users.id, member.id)))[0]!;
    expect(row).toMatchObject({ status: 0, coins: 20 });

    // The member's next page: the session is gone, the guard sends them to the login.
    await memberTab.goto(`${server.url}/user/profile`);
    await memberTab.waitForURL(`${server.url}/login`);
    await hydrated(memberTab);
    await memberTab.getByPlaceholder("请输入用户名/邮箱").first().waitFor();
    await shot(memberTab, "member-logged-out");
    expect(unexpected(problems)).toEqual([]);
    expect(unexpected(memberProblems)).toEqual([]);
  });

  it("processes a collected item into a suite, which the public site then shows", async () => {
    const db = server.app.deps.database.db;
    const id = await insertCollected(db, { source: "djuu", sourceId: "778899", title: COLLECTED_TITLE, artist: "周杰伦", kind: "single", durationSec: 240 });
    const { page, problems } = await adminPage();
    await page.goto(`${server.url}/panda/collectData`);
    await hydrated(page);
    await page.getByTestId("collect-progress").getByRole("button", { name: "开始采集" }).waitFor();
    const table = page.getByTestId("collected-table");
    await page.getByText("未处理", { exact: true }).first().click();
    await table.getByText(COLLECTED_TITLE).waitFor();
    await shot(page, "collected-pending");

    const row = table.locator("tr", { hasText: COLLECTED_TITLE });
    await row.getByRole("button", { name: "处理" }).click();
    await page.getByText("处理成功 1 条").waitFor();
    // Processed: it leaves the 未处理 view.
    await expect.poll(() => table.getByText(COLLECTED_TITLE).count()).toBe(0);
    await page.getByText("已处理", { exact: true }).first().click();
    await table.locator("tr", { hasText: COLLECTED_TITLE }).getByText("查看").waitFor();
    await shot(page, "collected-processed");

    const [done] = await db.select().from(collectedItems).where(eq(collectedItems.id, id));
    expect(done).toMatchObject({ status: 1, itemId: expect.any(Number) });
    const publicPage = await page.context().newPage();
    await publicPage.goto(`${server.url}/sutie/${done!.itemId}.html`);
    await hydrated(publicPage);
    await publicPage.getByRole("heading", { name: COLLECTED_TITLE }).or(publicPage.getByText(COLLECTED_TITLE).first()).first().waitFor();
    await shot(publicPage, "collected-public-page");
    expect(unexpected(problems)).toEqual([]);
  });

  it("starts collecting from the screen and shows the job's progress live, then the new rows", async () => {
    const { page, problems } = await adminPage();
    await page.goto(`${server.url}/panda/collectData`);
    await hydrated(page);
    const card = page.getByTestId("collect-progress");
    await card.getByLabel("采集来源").click();
    await page.locator(".ant-select-item-option", { hasText: "DJUU" }).click();
    await card.getByRole("button", { name: "开始采集" }).click();
    await page.getByText("已开始采集 1 个来源").waitFor();
    const job = card.getByTestId("collect-job-djuu");
    await job.getByText("排队中").waitFor();
    // This instance's runner (main.ts starts it in the real server; here the test does).
    const running = server.app.services.collector.runner.runOnce();
    await job.getByText("采集中").waitFor();
    await expect.poll(async () => Number(/已采 (\d+) 页/u.exec((await job.textContent()) ?? "")?.[1] ?? 0), { timeout: 15_000 }).toBeGreaterThan(1);
    await expect.poll(() => job.textContent()).toMatch(/发现 [1-9]\d* 条/u);
    await shot(page, "collect-running");
    await running;
    await job.getByText("已完成").waitFor({ timeout: 15_000 });
    // The table reloads when the job ends: the new rows are there.
    await expect.poll(async () => Number(/共 (\d+) 条/u.exec((await page.getByTestId("collected-table").textContent()) ?? "")?.[1] ?? 0)).toBeGreaterThan(5);
    await shot(page, "collect-done");
    expect(unexpected(problems)).toEqual([]);
  });

  it("shows comments newest first and hides one", async () => {
    const [suite] = (await server.app.deps.database.db.select({ id: collectedItems.itemId }).from(collectedItems)).filter((r) => r.id);
    const author = await createTestUser(server.app, { username: "commenter" });
    await server.app.services.library.postComment(author.id, suite!.id!, "第一条评论：好听");
    await server.app.services.library.postComment(author.id, suite!.id!, "第二条评论：广告 加微信");
    const { page, problems } = await adminPage();
    await page.goto(`${server.url}/panda/comments`);
    await hydrated(page);
    const table = page.getByTestId("comment-table");
    await table.getByText("第二条评论：广告 加微信").waitFor();
    const first = table.locator("tbody tr.ant-table-row").first();
    await expect.poll(() => first.textContent()).toContain("第二条评论");
    await first.getByRole("button", { name: "隐藏" }).click();
    await page.getByText("已隐藏").first().waitFor();
    await first.locator(".ant-tag", { hasText: "已隐藏" }).waitFor();
    await shot(page, "comments");

    expect(unexpected(problems)).toEqual([]);
  });

  it("configures a generic source in the sources screen, tries a search through it and shows its health", async () => {
    const { page, problems } = await adminPage();
    await page.goto(`${server.url}/panda/sources`);
    await hydrated(page);
    const sources = page.getByTestId("source-table");
    await sources.getByText("djuu", { exact: true }).waitFor();
    await shot(page, "sources");
    await sources.locator("tr", { hasText: "djuu" }).getByRole("button", { name: "设置" }).click();
    await page.getByText("内置来源的适配器由代码提供").waitFor();
    await shot(page, "sources-settings");
    // A built-in source's timeout: shown as its default, then set by the admin and applied at once.
    const djuuRow = sources.locator("tr", { hasText: "djuu" });
    expect(await djuuRow.textContent()).toContain("5000 ms 默认");
    await page.getByLabel("超时").fill("1500");
    await page.getByRole("dialog").getByRole("button", { name: /保\s?存/u }).click();
    await page.getByText("保存成功").waitFor();
    await djuuRow.getByText("1500 ms", { exact: true }).waitFor();
    expect(server.app.services.sourceDirectory.get("djuu")?.timeoutMs).toBe(1_500);
    await shot(page, "sources-timeout");
    await page.getByText("保存成功").waitFor({ state: "hidden" }); // the next save shows its own
    await page.getByRole("button", { name: "新增通用来源" }).click();
    await page.getByLabel("通用来源配置").fill('{"name": "坏配置"}');
    await page.getByLabel("来源代码").fill("broken");
    await page.getByRole("dialog").getByRole("button", { name: /保\s?存/u }).click();
    await page.getByTestId("source-error").waitFor();
    expect(await page.getByTestId("source-error").textContent()).toMatch(/来源配置无效/u);
    await shot(page, "sources-new-refused");

    // A good configuration: the djuu configuration pointed at the fixture site.
    const config = { ...DJUU_CONFIG, name: "镜像DJ", baseUrl: site.url, bases: { api: `${site.url}/app/v1` }, hosts: [site.host], minIntervalMs: 0 };
    await page.getByLabel("通用来源配置").fill(JSON.stringify(config, null, 2));
    await page.getByLabel("来源代码").fill("mirror");
    await page.getByRole("dialog").getByRole("button", { name: /保\s?存/u }).click();
    await page.getByText("保存成功").waitFor();
    const mirror = sources.locator("tr", { hasText: "镜像DJ" });
    await mirror.getByText("使用中").waitFor();

    await mirror.getByRole("button", { name: "试搜" }).click();
    await page.getByLabel("试搜关键词").fill("夜曲");
    await page.getByLabel("试搜关键词").press("Enter");
    const result = page.getByTestId("source-try-result");
    await result.getByText("夜曲(DJ阿福 Electro Rmx 2025 粤语)").waitFor();
    expect(await result.textContent()).toMatch(/第一页 3 条/u);
    await shot(page, "sources-try");
    await page.keyboard.press("Escape");

    // A public search through it gives the health board its numbers.
    expect((await server.app.inject({ url: "/api/forntend/indexsearch", query: { keyword: "夜曲", channelid: "mirror" } })).statusCode).toBe(200);
    await page.getByRole("button", { name: "刷新" }).click();
    await mirror.getByText("成功率 100%").waitFor();
    await shot(page, "sources-health");
    expect(unexpected(problems).filter((p) => !/status of 400\b/u.test(p))).toEqual([]);
  });
});
