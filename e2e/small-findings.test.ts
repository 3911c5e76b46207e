/**
 * Issue 24's smaller findings (point 6) in the browser: the restored player before its media
 * has loaded, the login tab's old messages, and the soft length limits of the bio and the
 * comment box (ADR 0060). The download dialog's short balance is in library.test.ts.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../server/db/schema/index";
import { captchaKey } from "../server/modules/accounts/captcha";
import { createTestUser, type TestUser } from "../server/testing/users";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer } from "./web-server";

const SHOTS = "/tmp/shots-webfix";
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer({ suites: 4, singles: 2 });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

async function newContext(member?: TestUser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: "zh-CN" });
  if (member) await context.addInitScript((token) => localStorage.setItem("token", token), member.token);
  return context;
}

describe("the restored player before its media has loaded", () => {
  /** A page whose stored player has one entry at 0:38, with the media's request held so it never loads. */
  async function restored(duration?: number) {
    const context = await newContext();
    const entry = { id: 99, name: "还原测试串烧", artist: "DJ测试", cover: "/img/noimage.png", url: "/media/held-for-test.mp3", mimeType: "audio/mpeg", ...(duration ? { duration } : {}) };
    const stored = JSON.stringify({ state: { items: [entry], index: 0, position: 38, volume: 80, muted: false, playback: null }, version: 1 });
    await context.addInitScript((value) => localStorage.setItem("dj-player", value), stored);
    const page = await context.newPage();
    await page.route("**/media/held-for-test.mp3", () => {
      // Held: the media never says how long it is.
    });
    await page.goto(`${server.url}/`);
    await hydrated(page);
    const bar = page.locator("[data-player-bar]");
    await bar.getByText("还原测试串烧").waitFor();
    const times = () => bar.locator("[data-player-progress] > span").allInnerTexts();
    const slider = bar.getByRole("slider", { name: "播放进度" });
    return { context, page, bar, times, slider };
  }

  it("with a known length: 0:38 / 1:00:00, the slider at 38 of 3600", async () => {
    const { context, page, times, slider } = await restored(3600);
    await expect.poll(times).toEqual(["0:38", "1:00:00"]);
    await expect.poll(() => slider.inputValue()).toBe("38");
    await expect.poll(() => slider.getAttribute("max")).toBe("3600");
    await shot(page, "player-restored-known");
    await context.close();
  });

  it("with no known length: 0:38 / --:--, the slider at the start (not full)", async () => {
    const { context, page, times, slider } = await restored();
    await expect.poll(times).toEqual(["0:38", "--:--"]);
    await expect.poll(() => slider.inputValue()).toBe("0");
    await expect.poll(() => slider.isDisabled()).toBe(true);
    await shot(page, "player-restored-unknown");
    await context.close();
  });
});

/** Resolves with the next captcha image the page loads. */
const nextCaptcha = (page: Page) => page.waitForResponse((r) => new URL(r.url()).pathname === "/captcha.html" && r.status() === 200);

/** The text of a loaded captcha image, as the server stored it (what a person reads off it). */
async function readCaptcha(image: Response): Promise<string> {
  const id = /captcha_id=([^;]+)/.exec((await image.headerValue("set-cookie")) ?? "")?.[1];
  const answer = id ? await server.app.services.ephemeral.get(captchaKey(id)) : undefined;
  if (!answer) throw new Error("no answer stored for the captcha image");
  return answer;
}

describe("the login dialog's old messages", () => {
  it("go when the register tab is visited, and after a registration the login tab is clean", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await hydrated(page);
    await page.getByRole("button", { name: "登录/注册" }).click();
    const dialog = page.getByRole("dialog");
    const login = dialog.getByRole("tabpanel", { name: "登录" });
    await login.getByRole("button", { name: "登录", exact: true }).click();
    await login.getByText("请输入用户名/邮箱").waitFor();
    await login.getByText("请输入密码").waitFor();

    // To the register tab and straight back: the login tab starts clean.
    let image = nextCaptcha(page);
    await dialog.getByRole("tab", { name: "注册" }).click();
    await image;
    await dialog.getByRole("tab", { name: "登录" }).click();
    await login.waitFor();
    await expect.poll(() => login.getByText("请输入用户名/邮箱").count()).toBe(0);
    await expect.poll(() => login.getByText("请输入密码").count()).toBe(0);
    await expect.poll(() => login.locator("[aria-invalid=true]").count()).toBe(0);

    // Complaints again, then a registration: back on the login tab, only the new username.
    await login.getByRole("button", { name: "登录", exact: true }).click();
    await login.getByText("请输入密码").waitFor();
    image = nextCaptcha(page);
    await dialog.getByRole("tab", { name: "注册" }).click();
    const answer = await readCaptcha(await image);
    const register = dialog.getByRole("tabpanel", { name: "注册" });
    const username = `clean${Date.now() % 100000}`;
    await register.getByLabel("用户名").fill(username);
    await register.getByLabel("邮箱").fill(`${username}@example.cn`);
    await register.getByLabel("密码", { exact: true }).fill("secret1");
    await register.getByLabel("确认密码").fill("secret1");
    await register.getByLabel("验证码", { exact: true }).fill(answer);
    await register.getByRole("button", { name: "注册" }).click();
    await expect.poll(() => login.getByLabel("用户名/邮箱").inputValue()).toBe(username);
    await expect.poll(() => login.getByText("请输入用户名/邮箱").count()).toBe(0);
    await expect.poll(() => login.getByText("请输入密码").count()).toBe(0);
    await expect.poll(() => login.locator("[aria-invalid=true]").count()).toBe(0);
    await page.waitForTimeout(400);
    await shot(page, "login-tab-after-register");
    await context.close();
  });
});

describe("soft length limits (ADR 0060)", () => {
  it("the bio takes more than 200 characters, says 个人简介不能超过200个字符 and does not save", async () => {
    const member = await createTestUser(server.app, { nickname: "简介测试" });
    const context = await newContext(member);
    const page = await context.newPage();
    await page.goto(`${server.url}/user/profile`);
    await hydrated(page);
    const bio = page.getByLabel("个人简介");
    await bio.fill("夜".repeat(201));
    await page.getByText("个人简介不能超过200个字符").waitFor();
    const count = page.getByText("201 / 200");
    await count.waitFor();
    // Read once the page has answered the input (its message and count): nothing cut it short.
    expect([...(await bio.inputValue())].length).toBe(201);
    await expect.poll(() => count.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(220, 38, 38)");
    await shot(page, "bio-over-limit");
    let saved = false;
    page.on("request", (r) => r.url().includes("update") && r.method() === "POST" && (saved = true));
    await page.getByRole("button", { name: /保\s*存/ }).click();
    await page.waitForTimeout(500);
    expect(saved).toBe(false);
    // 200 is allowed: the message goes.
    await bio.press("Backspace");
    await page.getByText("个人简介不能超过200个字符").waitFor({ state: "detached" });
    await page.getByRole("button", { name: /保\s*存/ }).click();
    await expect.poll(async () => (await server.app.deps.database.db.select().from(users).where(eq(users.id, member.id)))[0].bio).toBe("夜".repeat(200));
    await context.close();
  });

  it("the comment box over 500 shows 评论不能超过500个字符 under a red count, and does not post", async () => {
    const member = await createTestUser(server.app, { nickname: "评论测试" });
    const context = await newContext(member);
    const page = await context.newPage();
    await page.goto(`${server.url}/sutie/1.html`);
    await hydrated(page);
    const box = page.getByRole("textbox", { name: "评论内容" });
    await box.fill("好".repeat(501));
    const alert = page.getByRole("alert").filter({ hasText: "评论不能超过500个字符" });
    await alert.waitFor();
    await expect.poll(() => box.getAttribute("aria-invalid")).toBe("true");
    const count = page.getByText("501/500");
    await count.waitFor();
    await expect.poll(() => count.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(220, 38, 38)");
    await box.scrollIntoViewIfNeeded();
    await shot(page, "comment-over-limit");
    let posted = false;
    page.on("request", (r) => r.url().includes("/comment") && r.method() === "POST" && (posted = true));
    await page.getByRole("button", { name: "发表评论" }).click();
    await page.waitForTimeout(500);
    expect(posted).toBe(false);
    await box.fill("好".repeat(500));
    await alert.waitFor({ state: "detached" });
    await context.close();
  });
});
