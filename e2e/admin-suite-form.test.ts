/**
 * The back office's suite form (issue 12, ADR 0029) in Debian's Chromium: an editor adds a
 * suite with a cover, an uploaded mp3 and a tracklist (the tree editor refuses times out of
 * order as they are typed), sees it on the public site and plays it in the global player, then
 * edits it and sees the change. Screenshots in /tmp/shots-adm-editor/.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { items } from "../server/db/schema/index.js";
import { DEMO_ASSETS_DIR, LONG_MIX_PATH } from "../server/demo-media/prepare-demo-media.js";
import { createTestAdmin } from "../server/testing/admins.js";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-adm-editor";
const TITLE = "测试套曲 夜色慢摇 2026";
const EDITED = "测试套曲 夜色慢摇 2026 (重制版)";
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let token: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer();
  browser = await launchBrowser();
  ({ token } = await createTestAdmin(server.app.deps.database.db, { role: "editor" }));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function adminPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: "zh-CN" });
  const problems = await watchProblems(page);
  await page.addInitScript((t) => localStorage.setItem("admin_token", t), token);
  return { page, problems };
}

/** Picks an option of the antd Select labelled `label`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label).click();
  await page.locator(".ant-select-item-option").filter({ hasText: option }).first().click();
}

const djRows = (page: Page) => page.getByTestId("djlist-row");

describe("adding and editing a suite in the back office", () => {
  let id = 0;

  it("adds a suite with a cover, an uploaded mp3 and a tracklist; the public page shows it and plays it", async () => {
    const { page, problems } = await adminPage();
    await page.goto(`${server.url}/panda/add`);
    await hydrated(page);
    await page.getByRole("heading", { name: "添加套曲" }).waitFor();
    await page.getByLabel("套曲名称").waitFor();
    await page.screenshot({ path: path.join(SHOTS, "add-empty.png"), fullPage: true });

    // Saving an empty form shows the spec's texts and sends nothing.
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("请输入套曲名称", { exact: true }).last().waitFor();
    await page.locator(".ant-form-item-explain-error", { hasText: "请选择分类" }).waitFor();
    await page.locator(".ant-form-item-explain-error", { hasText: "请上传媒体文件或填写播放地址" }).waitFor();

    await page.getByLabel("套曲名称").fill(TITLE);
    const category = await page.evaluate(async () => {
      const res = await fetch("/api/pandaadmin/suites/options", { headers: { Authorization: `Bearer ${localStorage.getItem("admin_token")}` } });
      return (await res.json()).data.categories[0].name as string;
    });
    await choose(page, "分类", category);
    await page.getByLabel("歌手").fill("DJ测试");

    const cover = await sharp({ create: { width: 900, height: 500, channels: 3, background: "#1677ff" } }).jpeg().toBuffer();
    await page.locator('input[type=file][accept="image/*"]').setInputFiles({ name: "cover.jpg", mimeType: "image/jpeg", buffer: cover });
    await expect.poll(() => page.getByAltText("封面预览").getAttribute("src"), { timeout: 30_000 }).toMatch(/^\/uploads\/covers\/.+\.webp$/);

    await page.locator('input[type=file][accept^=".mp3"]').setInputFiles(path.join(DEMO_ASSETS_DIR, "audio/loop1-deep-house-a-minor.mp3"));
    await expect.poll(() => page.getByRole("textbox", { name: "播放地址" }).inputValue(), { timeout: 30_000 }).toMatch(/^\/uploads\/media\/.+\.mp3$/);
    expect(await page.getByLabel("时长").inputValue()).toBe("30");

    // The tracklist: two tracks; a time before the previous one is refused as it is typed.
    await page.getByRole("button", { name: "添加曲目" }).click();
    await page.getByRole("button", { name: "添加曲目" }).click();
    await djRows(page).nth(0).getByLabel("曲目名称").fill("1 开场");
    await djRows(page).nth(0).getByLabel("开始时间").fill("0:10");
    await djRows(page).nth(1).getByLabel("曲目名称").fill("2 高潮");
    await djRows(page).nth(1).getByLabel("开始时间").fill("0:05");
    await page.locator(".ant-form-item-explain-error", { hasText: "「2 高潮」的开始时间应晚于「1 开场」" }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, "add-djlist-error.png"), fullPage: true });
    await djRows(page).nth(0).getByLabel("开始时间").fill("0:00");
    await djRows(page).nth(1).getByLabel("开始时间").fill("0:15");
    await page.locator(".ant-form-item-explain-error", { hasText: "开始时间应晚于" }).waitFor({ state: "detached" });
    await page.getByLabel("价格").fill("3");
    await page.screenshot({ path: path.join(SHOTS, "add-filled.png"), fullPage: true });

    await page.getByRole("button", { name: "保存" }).click();
    await page.waitForURL(/\/panda\/sutieList$/);
    await page.getByText("添加成功").waitFor();
    const [row] = await server.app.deps.database.db.select().from(items).where(eq(items.title, TITLE));
    expect(row).toMatchObject({ artist: "DJ测试", price: 3, durationSec: 30, playtype: "mp3", kind: "mix" });
    expect(row.djlist).toEqual([{ label: "1 开场", icon: "music", start: 0 }, { label: "2 高潮", icon: "music", start: 15 }]);
    id = row.id;
    expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);

    // The public page at once, and the global player plays the uploaded file.
    const visitor = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
    await visitor.goto(`${server.url}/sutie/${id}.html`);
    await expect.poll(() => visitor.getByRole("heading", { level: 1 }).innerText()).toContain(TITLE);
    await hydrated(visitor);
    await expect.poll(() => visitor.getByRole("treeitem").count()).toBe(2);
    await visitor.getByRole("button", { name: "播放", exact: true }).click();
    await expect
      .poll(() => visitor.evaluate(() => (document.querySelector("[data-player-media]") as HTMLMediaElement | null)?.currentTime ?? 0), { timeout: 30_000 })
      .toBeGreaterThan(0.5);
    expect(await visitor.evaluate(() => (document.querySelector("[data-player-media]") as HTMLMediaElement).currentSrc)).toContain(row.playUrl);
    await visitor.screenshot({ path: path.join(SHOTS, "public-suite.png") });
    await visitor.close();
    await page.close();
  });

  it("edits the suite; the public page shows the new title on the next request", async () => {
    const { page, problems } = await adminPage();
    await page.goto(`${server.url}/panda/edit/${id}`);
    await hydrated(page);
    await page.getByRole("heading", { name: "编辑套曲" }).waitFor();
    await expect.poll(() => page.getByLabel("套曲名称").inputValue()).toBe(TITLE);
    await expect.poll(() => djRows(page).count()).toBe(2);
    await page.screenshot({ path: path.join(SHOTS, "edit-loaded.png"), fullPage: true });

    await page.getByLabel("套曲名称").fill(EDITED);
    // A larger file (the demo's 66-minute mix, ~60 MB) goes up in 4 MB pieces, with progress.
    const mix = path.join(server.app.deps.config.dataDir, "media", "demo", LONG_MIX_PATH);
    const pieces: string[] = [];
    page.on("request", (r) => void (r.url().includes("/upload/media/chunks/") && r.method() === "PUT" && pieces.push(r.url())));
    await page.locator('input[type=file][accept^=".mp3"]').setInputFiles(mix);
    await expect.poll(() => page.getByLabel("时长").inputValue(), { timeout: 60_000 }).not.toBe("30");
    expect(Number(await page.getByLabel("时长").inputValue())).toBeGreaterThan(3900);
    expect(pieces.length).toBeGreaterThan(10);
    const uploadedMix = await page.getByRole("textbox", { name: "播放地址" }).inputValue();
    expect(uploadedMix).toMatch(/^\/uploads\/media\/[0-9a-f]{20}\.mp3$/);
    // A folder with a track, sorted into the public order with one click.
    await page.getByRole("button", { name: "添加文件夹" }).click();
    await djRows(page).nth(2).getByLabel("文件夹名称").fill("0 花絮");
    await page.locator(".ant-form-item-explain-error", { hasText: "应排在" }).waitFor();
    await djRows(page).nth(2).getByRole("button", { name: "在文件夹中添加曲目" }).click();
    await djRows(page).nth(3).getByLabel("曲目名称").fill("彩蛋");
    await page.getByRole("button", { name: "按名称排序" }).click();
    await expect.poll(() => djRows(page).nth(0).getByLabel("文件夹名称").inputValue()).toBe("0 花絮");
    await page.locator(".ant-form-item-explain-error", { hasText: "应排在" }).waitFor({ state: "detached" });
    await page.screenshot({ path: path.join(SHOTS, "edit-changed.png"), fullPage: true });
    await page.getByRole("button", { name: "保存" }).click();
    await page.waitForURL(/\/panda\/sutieList$/);
    await page.getByText("保存成功").waitFor();
    expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
    await page.close();

    const html = await fetch(`${server.url}/sutie/${id}.html`).then((r) => r.text());
    expect(html).toContain(EDITED);
    expect(html).toContain("彩蛋");
    const [row] = await server.app.deps.database.db.select().from(items).where(eq(items.id, id));
    expect(row).toMatchObject({ title: EDITED, playUrl: uploadedMix });
    expect(row.durationSec).toBeGreaterThan(3900);
  });
});
