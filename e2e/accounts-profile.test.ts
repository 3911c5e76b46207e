/**
 * Forgot password by email code, and the profile page (nickname, avatar, password and email
 * dialogs) in Debian's Chromium against the real app. Codes are read from the outbox table of
 * the in-process app (it runs without SMTP_URL, as the embedded default does).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../server/db/schema/index";
import { verifyPassword } from "../server/modules/accounts/passwords";
import { outboxRepo } from "../server/modules/mail/outbox";
import { lastOutboxCode } from "../server/testing/mail-codes";
import { createTestUser, type TestUser } from "../server/testing/users";
import { hydrated, launchBrowser } from "./browser";
import { ROOT, startWebServer, watchProblems } from "./web-server";

const SHOTS = process.env.SHOTS_DIR ?? path.join(ROOT, "test-results", "screens");
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer({ suites: 4, singles: 4 });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const userRow = async (id: number) => (await server.app.deps.database.db.select().from(users).where(eq(users.id, id)))[0];
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
/** The page's and the server's clocks move together (the code throttle is the server's). */
async function waitOutResend(page: Page) {
  server.clock.advance(61_000);
  await page.clock.fastForward(61_000);
}

/**
 * Problems other than the 4xx answers these pages expect: Chromium logs each one as a console
 * error (该邮箱未注册 404, 昵称已被使用 409, 原密码错误 400).
 */
const unexpected = (problems: string[]) =>
  problems.filter((p) => !/Failed to load resource: the server responded with a status of 4(00|04|09)\b/.test(p));

/** Lets the toasts of earlier steps expire (antd's 3 s) before a screenshot. */
async function clearToasts(page: Page) {
  await page.clock.runFor(3_500);
  await expect.poll(() => page.locator(".ant-message-notice").count()).toBe(0);
}

/** A browser page whose localStorage holds the member's token (login is another engineer's part). */
async function memberPage(member: TestUser | null): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
  await context.clock.install();
  if (member) await context.addInitScript((token) => localStorage.setItem("token", token), member.token);
  const page = await context.newPage();
  const problems = await watchProblems(page);
  return { context, page, problems };
}

describe("forgot password", () => {
  it("two steps: the email (registered), then the code with its countdown and the new password; success goes to /login", async () => {
    const member = await createTestUser(server.app, { password: "oldpass123" });
    const { context, page, problems } = await memberPage(null);
    await page.goto(`${server.url}/forgot-password`);
    await hydrated(page);
    await page.getByRole("heading", { name: "忘记密码" }).waitFor();

    const email = page.getByLabel("邮箱");
    await email.fill("not-an-address");
    await page.getByRole("button", { name: "下一步" }).click();
    await page.getByText("请输入正确的邮箱格式").waitFor();
    await email.fill("nobody@example.cn");
    await page.getByRole("button", { name: "下一步" }).click();
    await page.getByText("该邮箱未注册").waitFor();
    await email.fill(member.email);
    await shot(page, "forgot-password-step0");
    await page.getByRole("button", { name: "下一步" }).click();

    // Step 1: the code went out, and the send button counts down, disabled.
    await page.getByText(`验证码已发送至 ${member.email}`).waitFor();
    const send = page.getByRole("button", { name: /s后重试$|获取验证码/ });
    await expect.poll(() => send.innerText()).toMatch(/^(60|59)s后重试$/);
    await expect.poll(() => send.isDisabled()).toBe(true);
    const firstCode = await lastOutboxCode(server.app, member.email);

    // After 60 s it may be pressed again; a new code supersedes the first.
    await waitOutResend(page);
    await expect.poll(() => send.innerText()).toBe("获取验证码");
    await expect.poll(() => send.isDisabled()).toBe(false);
    await send.click();
    await expect.poll(() => send.innerText()).toMatch(/^(60|59)s后重试$/);
    await expect.poll(async () => (await outboxRepo(server.app.deps.database.db).latest({ to: member.email })).length).toBe(2);
    const code = await lastOutboxCode(server.app, member.email);
    if (code !== firstCode) {
      // The superseded code no longer works (checked through the API, the page keeps the newest).
      const check = await fetch(`${server.url}/api/user/check-code`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: member.email, event: "resetpwd", captcha: firstCode }),
      });
      expect((await check.json()).msg).toBe("验证码错误");
    }

    await page.getByPlaceholder("请输入验证码").fill(code);
    await page.getByLabel("新密码").fill("resetpass9");
    await page.getByLabel("确认密码").fill("resetpass8");
    await page.getByRole("button", { name: "确认重置" }).click();
    await page.getByText("两次输入的密码不一致").waitFor();
    await page.getByLabel("确认密码").fill("resetpass9");
    await page.getByText("两次输入的密码不一致").waitFor({ state: "detached" });
    await shot(page, "forgot-password-step1");

    await page.getByRole("button", { name: "确认重置" }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByText("密码重置成功，请登录").waitFor();
    const row = await userRow(member.id);
    expect(await verifyPassword(row.passwordHash, "resetpass9")).toBe(true);
    expect(await verifyPassword(row.passwordHash, "oldpass123")).toBe(false);
    // The reset ended the member's old session.
    const isloging = await fetch(`${server.url}/api/user/isloging`, { headers: member.headers });
    expect(isloging.status).toBe(401);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it("a logged-in member is sent from /forgot-password to /user/profile", async () => {
    const member = await createTestUser(server.app);
    const { context, page } = await memberPage(member);
    await page.goto(`${server.url}/forgot-password`);
    await page.waitForURL(`${server.url}/user/profile`);
    await context.close();
  });
});

describe("profile", () => {
  let member: TestUser;
  let page: Page;
  let context: BrowserContext;
  let problems: string[];

  beforeAll(async () => {
    member = await createTestUser(server.app, {
      password: "profile123",
      nickname: "夜店旧昵称",
      coins: 120,
      vipUntil: new Date(Date.now() + 30 * 86_400_000),
    });
    await createTestUser(server.app, { nickname: "别人的昵称" });
    ({ context, page, problems } = await memberPage(member));
    await page.goto(`${server.url}/user/profile`);
    await hydrated(page);
    await page.getByRole("heading", { name: "个人资料" }).waitFor();
  });
  afterAll(() => context?.close());

  const navbarUser = () => page.locator("header").getByRole("button").filter({ has: page.locator(".ant-avatar") });

  it("shows the account: read-only username and email, coins and VIP, nickname and bio", async () => {
    await expect.poll(() => page.getByLabel("用户名").inputValue()).toBe(member.username);
    expect(await page.getByLabel("用户名").isDisabled()).toBe(true);
    expect(await page.getByLabel("邮箱", { exact: true }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByLabel("昵称").inputValue()).toBe("夜店旧昵称");
    await page.getByText("120").first().waitFor();
    await page.getByText(/VIP会员 · .* 到期/).waitFor();
    await expect.poll(() => navbarUser().innerText()).toContain("夜店旧昵称");
    await shot(page, "profile");
    // A phone's width: the header stacks, nothing overflows.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "profile-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("checks the nickname before saving, then saves nickname and bio; the navbar shows the new name", async () => {
    const nickname = page.getByLabel("昵称");
    await nickname.fill("别人的昵称");
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("昵称已被使用").waitFor();
    expect((await userRow(member.id)).nickname).toBe("夜店旧昵称");

    await nickname.fill("慢摇新昵称");
    await page.getByLabel("个人简介").fill("每晚都在听串烧");
    await page.getByText("7 / 200").waitFor();
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("保存成功").waitFor();
    expect(await userRow(member.id)).toMatchObject({ nickname: "慢摇新昵称", bio: "每晚都在听串烧" });
    await expect.poll(() => navbarUser().innerText()).toContain("慢摇新昵称");
  });

  it("uploads an avatar: shown at once on the page and in the navbar, stored as a 256 × 256 WebP", async () => {
    const file = path.join(SHOTS, "avatar-upload.png");
    writeFileSync(
      file,
      await sharp({ create: { width: 640, height: 480, channels: 3, background: "#ec4899" } })
        .composite([{ input: Buffer.from('<svg width="640" height="480"><circle cx="320" cy="240" r="160" fill="#7c3aed"/></svg>') }])
        .png()
        .toBuffer(),
    );
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByText("头像上传成功").waitFor();
    const stored = (await userRow(member.id)).avatar!;
    expect(stored).toMatch(new RegExp(`^/uploads/avatars/${member.id}-[0-9a-f]+\\.webp$`));
    await expect.poll(() => page.getByRole("button", { name: "更换头像" }).locator("img").getAttribute("src")).toBe(stored);
    await expect.poll(() => navbarUser().locator("img").getAttribute("src")).toBe(stored);
    const served = await fetch(`${server.url}${stored}`);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ width: 256, height: 256 });
    await shot(page, "profile-after-changes");
  });

  it("change password dialog: confirmation and old password are checked; success keeps the member signed in", async () => {
    await clearToasts(page);
    await page.getByRole("button", { name: "修改密码" }).click();
    const dialog = page.getByRole("dialog", { name: "修改密码" });
    await dialog.waitFor();
    await dialog.getByLabel("原密码").fill("wrong-password");
    await dialog.getByLabel("新密码", { exact: true }).fill("profile456");
    await dialog.getByLabel("确认新密码").fill("profile457");
    await dialog.getByRole("button", { name: "确认修改" }).click();
    await dialog.getByText("两次输入的密码不一致").waitFor();
    await dialog.getByLabel("确认新密码").fill("profile456");
    await dialog.getByText("两次输入的密码不一致").waitFor({ state: "detached" });
    await shot(page, "dialog-change-password");
    await dialog.getByRole("button", { name: "确认修改" }).click();
    await dialog.getByText("原密码错误").waitFor();
    await dialog.getByLabel("原密码").fill("profile123");
    await dialog.getByRole("button", { name: "确认修改" }).click();
    await page.getByText("密码修改成功").waitFor();
    await dialog.waitFor({ state: "hidden" });
    expect(await verifyPassword((await userRow(member.id)).passwordHash, "profile456")).toBe(true);
    expect((await fetch(`${server.url}/api/user/isloging`, { headers: member.headers })).status).toBe(200);
    expect(page.url()).toBe(`${server.url}/user/profile`);
  });

  it("change email dialog: the current address by code, then the new one with its own countdown; closing goes back to step 0", async () => {
    const newEmail = `fresh-${member.id}@example.cn`;
    await clearToasts(page);
    await page.getByRole("button", { name: "修改邮箱" }).click();
    const dialog = page.getByRole("dialog", { name: "修改邮箱" });
    await dialog.waitFor();
    expect(await dialog.getByLabel("当前邮箱").inputValue()).toBe(member.email);
    const sendCurrent = dialog.locator("#verify-current-email button");
    const sendNew = dialog.locator("#bind-new-email button");
    await sendCurrent.click();
    await expect.poll(() => sendCurrent.innerText()).toMatch(/^(60|59)s后重试$/);
    await dialog.getByPlaceholder("请输入当前邮箱收到的验证码").fill(await lastOutboxCode(server.app, member.email));
    await shot(page, "dialog-change-email-step0");
    await dialog.getByRole("button", { name: "下一步" }).click();
    await dialog.getByLabel("新邮箱").waitFor({ state: "visible" });

    // Closing resets to step 0; the first countdown keeps running meanwhile.
    await dialog.getByRole("button", { name: "取消" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "修改邮箱" }).click();
    await dialog.getByLabel("当前邮箱").waitFor({ state: "visible" });
    expect(await dialog.getByLabel("新邮箱").isVisible()).toBe(false);
    await expect.poll(() => sendCurrent.innerText()).toMatch(/s后重试$/);

    // Verify again (a minute later), then the new address with its own button and countdown.
    await waitOutResend(page);
    await expect.poll(() => sendCurrent.innerText()).toBe("获取验证码");
    await sendCurrent.click();
    await expect.poll(() => sendCurrent.innerText()).toMatch(/^(60|59)s后重试$/);
    await dialog.getByPlaceholder("请输入当前邮箱收到的验证码").fill(await lastOutboxCode(server.app, member.email));
    await dialog.getByRole("button", { name: "下一步" }).click();
    await dialog.getByLabel("新邮箱").fill(newEmail);
    // The new address's button is free while the current address's one is still counting.
    expect(await sendNew.innerText()).toBe("获取验证码");
    await page.clock.runFor(5_000);
    await sendNew.click();
    await expect.poll(() => sendNew.innerText()).toMatch(/^(60|59)s后重试$/);
    const currentLeft = Number((await sendCurrent.innerText()).replace("s后重试", ""));
    expect(currentLeft).toBeLessThan(57);
    await dialog.getByPlaceholder("请输入新邮箱收到的验证码").fill(await lastOutboxCode(server.app, newEmail));
    await shot(page, "dialog-change-email-step1");
    await dialog.getByRole("button", { name: "确认修改" }).click();
    await page.getByText("邮箱修改成功").waitFor();
    await dialog.waitFor({ state: "hidden" });
    expect((await userRow(member.id)).email).toBe(newEmail);
    await expect.poll(() => page.getByLabel("邮箱", { exact: true }).inputValue()).toBe(newEmail);
    expect(unexpected(problems)).toEqual([]);
  });
});
