/**
 * 样本 on the 来源插件 screen (issue 22), on the real server process (OUTBOUND_ALLOW=127.0.0.1;
 * the plugin's site is a loopback fixture): try a plugin and save the answers its requests got
 * as samples, see them in the 样本 drawer, find an update that breaks the parse (shown beside
 * the version in use, not activated), then a good one activated after its replay, and enable
 * the plugin. A newer version uploaded as a file is staged the same way: the replay dialog opens
 * before it is used. Screenshots at 1440×900 under test-results/screenshots/recorded/ (SHOTS_DIR overrides).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveYedian, yedianPlugin } from "../server/modules/plugins/testing/yedian";
import { startFixtureSite, text, type FixtureSite } from "../server/testing/fixture-site";
import { hydrated, launchBrowser } from "./browser";
import { signInFirstStartAdmin } from "./first-admin";
import { NO_BACKGROUND_JOBS, type RunningSite, startSite } from "./site";
import { ensureWebBuild, ROOT, watchProblems } from "./web-server";

const SHOTS = process.env.SHOTS_DIR ?? path.join(ROOT, "test-results", "screenshots", "recorded");

let site: FixtureSite;
let server: RunningSite;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];
/** The plugin code the fixture site serves at its srcUrl. */
let served = "";

beforeAll(async () => {
  ensureWebBuild();
  mkdirSync(SHOTS, { recursive: true });
  site = await startFixtureSite();
  site.route("/plugin.js", (req, res, m) => text(served, "application/javascript; charset=utf-8")(req, res, m));
  serveYedian(site);
  server = await startSite({ env: { ...NO_BACKGROUND_JOBS, OUTBOUND_ALLOW: "127.0.0.1" } });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "zh-CN" });
  page = await context.newPage();
  problems = await watchProblems(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.dispose();
  await site?.close();
});

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
/** Dialogs and drawers done with their entrance (antd's motion classes end in -enter/-appear while it runs). */
const settled = () => page.waitForFunction(() => !document.querySelector('[class*="-enter"], [class*="-appear"]'));
const toast = (content: string | RegExp) => page.locator(".ant-message-notice").getByText(content).first().waitFor();
const pluginRow = () => page.getByTestId("plugin-table").locator("tr.ant-table-row", { hasText: "夜店DJ" });
/** Covers of the fixture's hits are https://img.example/… (no outside network here); nothing else may complain. */
const unexpected = () => problems.filter((p) => !/Failed to load resource: net::ERR_NAME_NOT_RESOLVED/u.test(p));

describe("样本: saved from a try, replayed before an update is enabled", () => {
  it("installs the plugin and saves the answers of a try as samples", async () => {
    // Its password is in DATA_DIR, not the piped log, and is changed first (issue 25).
    await signInFirstStartAdmin(page, server);
    await page.goto(`${server.url}/panda/plugins`);
    await hydrated(page);
    const file = path.join(tmpdir(), `yedian-recorded-${process.pid}.js`);
    writeFileSync(file, yedianPlugin("1.0.0", site.url));
    await page.getByRole("tab", { name: "上传文件" }).click();
    await page.getByTestId("plugin-install").locator("input[type=file]").setInputFiles(file);
    await toast("已安装 1 个插件");

    await pluginRow().getByRole("button", { name: "试用" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("试用关键词").fill("夜曲");
    await dialog.getByRole("button", { name: "试搜" }).click();
    const answers = dialog.getByTestId("plugin-try-answer");
    await expect.poll(() => answers.count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => answers.nth(0).textContent()).toMatch(/搜索HTTP 200.*\/search\?key=/u);
    await expect.poll(() => answers.nth(1).textContent()).toMatch(/播放地址HTTP 200.*\/play\/1/u);
    for (const i of [0, 1]) {
      await answers.nth(i).getByRole("button", { name: "保存为样本" }).click();
      await answers.nth(i).getByText("已保存").waitFor();
    }
    await dialog.getByTestId("plugin-try-answers").scrollIntoViewIfNeeded();
    await settled();
    await shot("01-try-saved");
    await dialog.locator(".ant-modal-close").click();
    await dialog.waitFor({ state: "hidden" });
  });

  it("lists the samples of the plugin's source in the 样本 drawer", async () => {
    // Opened for a source, the drawer asks for that source's list only: a list of another source
    // asked for first could answer last and show its (empty) list instead.
    const asked: string[] = [];
    const onRequest = (req: { url(): string }) => {
      const url = new URL(req.url());
      if (url.pathname === "/api/pandaadmin/recorded") asked.push(url.searchParams.get("source") ?? "");
    };
    page.on("request", onRequest);
    await pluginRow().getByRole("button", { name: "样本" }).click();
    const drawer = page.getByTestId("recorded-drawer");
    const rows = drawer.getByTestId("recorded-table").locator("tr.ant-table-row");
    await expect.poll(() => rows.count()).toBe(2);
    page.off("request", onRequest);
    expect(asked).toEqual([await pluginRow().getByTestId("plugin-source").textContent()]);
    await expect.poll(() => drawer.textContent()).toMatch(/2\/50 个/u);
    await expect.poll(() => rows.first().textContent()).toMatch(/播放地址HTTP 200.*试用时保存/u);
    await settled();
    await shot("02-samples");
    await page.locator(".ant-drawer-close").click();
    await drawer.waitFor({ state: "hidden" });
  });

  it("finds an update that breaks the parse: shown beside the version in use, and not activated", async () => {
    served = yedianPlugin("1.1.0", site.url).replaceAll("ul.list li", "ul.songs li");
    await pluginRow().getByRole("button", { name: "检查更新" }).click();
    const found = page.getByRole("dialog", { name: "发现新版本：夜店DJ v1.1.0（当前 v1.0.0）" });
    const replay = found.getByTestId("plugin-replay");
    await replay.waitFor({ timeout: 20_000 });
    await found.getByText("新版本在 1 个样本上提取的结果比当前版本少或出错").waitFor();
    const search = replay.locator("tr.ant-table-row", { hasText: "/search?key=" });
    const [old, next] = [search.getByTestId("replay-reading").nth(0), search.getByTestId("replay-reading").nth(1)];
    await expect.poll(() => old.textContent()).toMatch(/^20 条夜曲串烧1夜曲2/u);
    await expect.poll(() => next.textContent()).toMatch(/^0 条比当前版本少/u);
    await settled();
    await shot("03-replay-broken-update");
    await found.getByRole("button", { name: "暂不启用" }).click();
    await found.waitFor({ state: "hidden" });
    await expect.poll(() => pluginRow().getByTestId("plugin-version").textContent()).toBe("v1.0.0");
  });

  it("activates a good update after its replay, then enables the plugin", async () => {
    served = yedianPlugin("1.2.0", site.url, "新");
    await pluginRow().getByRole("button", { name: "检查更新" }).click();
    const found = page.getByRole("dialog", { name: "发现新版本：夜店DJ v1.2.0（当前 v1.0.0）" });
    await found.getByText("新版本在全部 2 个样本上不比当前版本差").waitFor({ timeout: 20_000 });
    const search = found.locator("tr.ant-table-row", { hasText: "/search?key=" });
    await expect.poll(() => search.getByTestId("replay-reading").nth(1).textContent()).toMatch(/^20 条新夜曲串烧1新夜曲2/u);
    await settled();
    await shot("04-replay-good-update");
    await found.getByRole("button", { name: "启用新版本 v1.2.0" }).click();
    await toast("已更新 夜店DJ：v1.0.0 → v1.2.0");
    await expect.poll(() => pluginRow().getByTestId("plugin-version").textContent()).toBe("v1.2.0");
    await pluginRow().getByRole("switch").click();
    await toast("已启用 夜店DJ");
    await shot("05-updated-and-enabled");
  });

  it("replays every sample through the version in use beside the one before, and deletes one", async () => {
    await pluginRow().getByRole("button", { name: "样本" }).click();
    const drawer = page.getByTestId("recorded-drawer");
    await drawer.getByRole("button", { name: "回放全部样本" }).click();
    const replay = drawer.getByTestId("recorded-replay");
    await replay.waitFor({ timeout: 20_000 });
    await expect.poll(() => replay.textContent()).toMatch(/上一版本.*当前版本 v1\.2\.0/u);
    await settled();
    await shot("06-samples-replayed");
    await drawer.getByTestId("recorded-table").locator("tr.ant-table-row").first().getByRole("button", { name: "删除" }).click();
    await page.locator(".ant-popconfirm").getByRole("button", { name: /删\s*除|确\s*定/u }).click();
    await toast("已删除样本");
    await expect.poll(() => drawer.getByTestId("recorded-table").locator("tr.ant-table-row").count()).toBe(1);
    expect(unexpected()).toEqual([]);
  });

  it("an uploaded newer version is not used at once: the replay dialog opens, and 启用新版本 puts it in use", async () => {
    const file = path.join(tmpdir(), `yedian-recorded-1.3.0-${process.pid}.js`);
    writeFileSync(file, yedianPlugin("1.3.0", site.url, "上传"));
    const drawer = page.getByTestId("recorded-drawer");
    await page.locator(".ant-drawer-close").click();
    await drawer.waitFor({ state: "hidden" });
    await page.getByRole("tab", { name: "上传文件" }).click();
    await page.getByTestId("plugin-install").locator("input[type=file]").setInputFiles(file);
    await toast("夜店DJ：已下载新版本 v1.3.0，回放样本后再启用");
    await expect.poll(() => page.getByTestId("plugin-install-staged").textContent()).toMatch(/已下载新版本 v1\.3\.0，回放样本后再启用.*当前仍在使用 v1\.2\.0/u);
    const found = page.getByRole("dialog", { name: "发现新版本：夜店DJ v1.3.0（当前 v1.2.0）" });
    await found.getByText("新版本在全部 1 个样本上不比当前版本差").waitFor({ timeout: 20_000 });
    const reading = found.getByTestId("plugin-replay").getByTestId("replay-reading");
    await expect.poll(() => reading.nth(1).textContent()).toMatch(/^20 条上传夜曲串烧1上传夜曲2/u);
    // Stored, not used: the list still shows the version in use.
    await expect.poll(() => pluginRow().getByTestId("plugin-version").textContent()).toBe("v1.2.0");
    await settled();
    await shot("07-upload-staged-replay");
    await found.getByRole("button", { name: "启用新版本 v1.3.0" }).click();
    await toast("已更新 夜店DJ：v1.2.0 → v1.3.0");
    await expect.poll(() => pluginRow().getByTestId("plugin-version").textContent()).toBe("v1.3.0");
    await expect.poll(() => pluginRow().getByTestId("plugin-previous-version").textContent()).toBe("上一版本 v1.2.0");
    // No longer waiting: the install card's notice of it is gone.
    await page.getByTestId("plugin-install-staged").waitFor({ state: "detached" });
    await settled();
    await shot("08-upload-activated");
    expect(unexpected()).toEqual([]);
  });
});
