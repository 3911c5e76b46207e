/**
 * The back office's accounts in the browser (issue 12): the admin logs in through the form
 * (captcha from the 5th failure, 记住账号 keeps the name only), sees the dashboard shell,
 * collapses the menu to 64px and logs out; a 超级管理员 manages admins and reads the audit
 * trail; an editor sees no 超级管理员 entries and is told so on such a page. Captchas are read
 * as in accounts-auth.test.ts: the answer the server stored for the image the browser loaded.
 */
import { mkdirSync } from "node:fs";
import { desc, eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admins, loginRecords } from "../server/db/schema/index";
import { captchaKey } from "../server/modules/accounts/captcha";
import { verifyPassword } from "../server/modules/accounts/passwords";
import { adminWithPassword } from "../server/modules/admin-accounts/test-fixtures";
import { createTestAdmin } from "../server/testing/admins";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-adm-accounts";
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

const db = () => server.app.deps.database.db;
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/admin-${name}.png` });
const toast = (page: Page, text: string) => page.locator(".ant-message-notice").getByText(text, { exact: true });

async function newPage(token?: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
  if (token) await context.addInitScript((t) => localStorage.setItem("admin_token", t), token);
  const page = await context.newPage();
  return { context, page, problems: await watchProblems(page) };
}

function nextCaptcha(page: Page): Promise<Response> {
  return page.waitForResponse((r) => new URL(r.url()).pathname === "/captcha.html" && r.status() === 200);
}
async function readCaptcha(image: Response): Promise<string> {
  const id = /captcha_id=([^;]+)/.exec((await image.headerValue("set-cookie")) ?? "")?.[1];
  const answer = id ? await server.app.services.ephemeral.get(captchaKey(id)) : undefined;
  if (!answer) throw new Error("no answer stored for the captcha image");
  return answer;
}

describe("admin accounts in the browser", () => {
  it("logs in through the form (captcha after 5 failures, 记住账号), sees the shell, collapses the menu, logs out", async () => {
    const boss = await adminWithPassword(db(), { username: "panda_boss", password: "Panda-2026" });
    await db().update(admins).set({ nickname: "熊猫老板" }).where(eq(admins.id, boss.id));
    const { context, page, problems } = await newPage();
    await page.goto(`${server.url}/panda/login`);
    await hydrated(page);
    const form = page.locator("form#admin-login");
    await form.waitFor();
    await form.getByRole("button", { name: "登录" }).click();
    await form.getByText("请输入账号").waitFor();
    await form.getByText("请输入密码").waitFor();
    await shot(page, "login");

    await page.getByLabel("账号", { exact: true }).fill("panda_boss");
    for (let i = 1; i <= 5; i++) {
      await page.getByLabel("密码", { exact: true }).fill(`wrong-${i}`);
      const image = i === 5 ? nextCaptcha(page) : null;
      await form.getByRole("button", { name: "登录" }).click();
      await expect.poll(() => page.evaluate(() => sessionStorage.getItem("admin_login_iscaptcha"))).toBe(String(i));
      if (image) {
        // The 5th failure: the captcha shows, with an image to read.
        await readCaptcha(await image);
        const captcha = page.getByRole("textbox", { name: "验证码" });
        await captcha.waitFor();
        // A click loads a new image (the last one is the one that counts).
        const again = nextCaptcha(page);
        await page.getByRole("button", { name: "验证码图片，点击换一张" }).click();
        const answer = await readCaptcha(await again);
        await page.getByLabel("密码", { exact: true }).fill("Panda-2026");
        await captcha.fill(answer);
      }
    }
    await toast(page, "登录失败").first().waitFor();
    await page.getByRole("checkbox", { name: "记住账号" }).check();
    await shot(page, "login-captcha");
    await form.getByRole("button", { name: "登录" }).click();
    await page.waitForURL(`${server.url}/panda/`);
    await page.getByRole("heading", { name: "控制台" }).waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem("admin_login_account"))).toBe("panda_boss");
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain("Panda-2026");
    const token = await page.evaluate(() => localStorage.getItem("admin_token"));
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [record] = await db().select().from(loginRecords).where(eq(loginRecords.adminId, boss.id)).orderBy(desc(loginRecords.id));
    expect(record).toMatchObject({ success: true, location: "内网IP" });

    // The shell: the super's menu, the name and role in the header, the 200px menu collapsing to 64px.
    const sider = page.getByTestId("admin-sider");
    for (const text of ["控制台", "管理员", "审计日志", "用户列表"]) await sider.getByText(text, { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId("admin-user").textContent()).toContain("熊猫老板");
    expect((await sider.boundingBox())?.width).toBe(200);
    await page.locator(".ant-layout-sider-trigger").click();
    await page.waitForFunction(() => document.querySelector("[data-testid=admin-sider]")?.getBoundingClientRect().width === 64);
    await page.waitForTimeout(300);
    await shot(page, "collapsed");

    // The login page is for guests: a signed-in admin goes to the dashboard.
    await page.goto(`${server.url}/panda/login`);
    await page.waitForURL(`${server.url}/panda/`);

    // Logout ends the session on the server too.
    await page.getByTestId("admin-user").click();
    await page.getByRole("menuitem", { name: "退出登录" }).click();
    await page.waitForURL(`${server.url}/panda/login`);
    await toast(page, "退出成功").waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem("admin_token"))).toBeNull();
    const check = await server.app.inject({ url: "/api/pandaadmin/check", headers: { authorization: `Bearer ${token}` } });
    expect(check.statusCode).toBe(401);
    // 记住账号: the name is filled in, the password is not.
    await expect.poll(() => page.getByLabel("账号", { exact: true }).inputValue()).toBe("panda_boss");
    expect(await page.getByLabel("密码", { exact: true }).inputValue()).toBe("");
    // The five refused logins are 401 answers, which the browser logs.
    expect(problems.filter((p) => !/responded with a status of 401/.test(p))).toEqual([]);
    expect(problems.length).toBe(5);
    await context.close();
  });

  it("a 超级管理员 adds, edits and disables an admin, then reads it in the audit trail", async () => {
    const boss = await createTestAdmin(db(), { role: "super", username: "audit_boss" });
    const { context, page, problems } = await newPage(boss.token);
    await page.goto(`${server.url}/panda/admins`);
    const table = page.getByTestId("admins-table");
    await table.getByRole("cell", { name: "audit_boss", exact: true }).waitFor();

    await page.getByRole("button", { name: "添加管理员" }).click();
    const dialog = page.getByRole("dialog", { name: "添加管理员" });
    await dialog.getByRole("button", { name: "保存" }).click();
    await dialog.getByText("请输入账号").waitFor();
    await dialog.getByLabel("账号", { exact: true }).fill("editor_zhang");
    await dialog.getByLabel("密码", { exact: true }).fill("zhang-2026");
    await dialog.getByLabel("昵称").fill("小张");
    await page.waitForTimeout(300);
    await shot(page, "admins-add");
    await dialog.getByRole("button", { name: "保存" }).click();
    await toast(page, "添加成功").waitFor();
    const row = table.getByRole("row").filter({ hasText: "editor_zhang" });
    await row.getByText("编辑", { exact: true }).first().waitFor();
    expect(await row.textContent()).toContain("小张");

    await row.getByRole("button", { name: "编辑" }).click();
    const edit = page.getByRole("dialog", { name: "编辑管理员 editor_zhang" });
    await edit.getByLabel("昵称").fill("张编辑");
    await edit.getByRole("button", { name: "保存" }).click();
    await toast(page, "保存成功").waitFor();
    await expect.poll(() => row.textContent()).toContain("张编辑");

    await row.getByRole("button", { name: "禁用" }).click();
    await page.locator(".ant-popconfirm").getByRole("button", { name: "禁用" }).click();
    await toast(page, "已禁用").waitFor();
    await expect.poll(() => row.textContent()).toContain("启用");
    // One's own row cannot be disabled.
    const own = table.getByRole("row").filter({ hasText: "audit_boss" });
    expect(await own.getByRole("button", { name: "禁用" }).isDisabled()).toBe(true);
    await page.waitForTimeout(2500); // the toasts fade, for the picture
    await shot(page, "admins");

    await page.getByTestId("admin-sider").getByRole("link", { name: "审计日志" }).click();
    await page.waitForURL(`${server.url}/panda/audit`);
    const audit = page.getByTestId("audit-table");
    await audit.getByText("admin.status").waitFor();
    for (const action of ["admin.create", "admin.update"]) await audit.getByText(action).waitFor();
    // The newest first: the disabling, with before and after.
    await audit.locator(".ant-table-row-expand-icon").first().click();
    const change = page.getByTestId("audit-change").first();
    await change.waitFor();
    expect(await change.textContent()).toContain("status");
    // Filtering by action narrows the table.
    await page.getByPlaceholder("操作，如 suite.update").fill("admin.update");
    await page.getByPlaceholder("操作，如 suite.update").press("Enter");
    await expect.poll(() => audit.locator(".ant-table-row").count()).toBe(1);
    await audit.locator(".ant-table-row-expand-icon").first().click();
    await page.getByTestId("audit-change").first().getByText("张编辑").waitFor();
    await shot(page, "audit");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("an editor sees no 超级管理员 entries; a super-only page says 需要超级管理员权限; changes their own password", async () => {
    const editor = await adminWithPassword(db(), { role: "editor", username: "just_editor", password: "edit-2026" });
    const { context, page, problems } = await newPage(editor.token);
    await page.goto(`${server.url}/panda/`);
    const sider = page.getByTestId("admin-sider");
    // The menu is drawn before the login check answers; read it once the check has named the editor.
    await expect.poll(() => page.getByTestId("admin-user").textContent()).toContain("just_editor");
    await sider.getByText("套曲列表", { exact: true }).waitFor();
    const menu = (await sider.textContent()) ?? "";
    for (const hidden of ["管理员", "审计日志", "用户列表"]) expect(menu).not.toContain(hidden);
    await page.goto(`${server.url}/panda/admins`);
    await page.getByTestId("super-only").getByText("需要超级管理员权限").waitFor();
    await shot(page, "editor-refused");
    for (const path of ["/panda/audit", "/panda/userList"]) {
      await page.goto(`${server.url}${path}`);
      await page.getByTestId("super-only").waitFor();
    }

    // Their own password: the old one, the new one twice (the site's rules).
    await page.getByTestId("admin-user").click();
    await page.getByRole("menuitem", { name: "修改密码" }).click();
    const dialog = page.getByRole("dialog", { name: "修改密码" });
    await dialog.getByLabel("原密码").fill("edit-2026");
    await dialog.getByLabel("新密码", { exact: true }).fill("abc");
    await dialog.getByLabel("确认新密码").fill("abd");
    await dialog.getByRole("button", { name: "保存" }).click();
    await dialog.getByText("密码长度必须在6到30个字符之间").waitFor();
    await dialog.getByText("两次输入的密码不一致").waitFor();
    await dialog.getByLabel("新密码", { exact: true }).fill("edit-2027");
    await dialog.getByLabel("确认新密码").fill("edit-2027");
    await page.waitForTimeout(300);
    await shot(page, "password");
    await dialog.getByRole("button", { name: "保存" }).click();
    await toast(page, "密码修改成功").waitFor();
    const [row] = await db().select().from(admins).where(eq(admins.id, editor.id));
    expect(await verifyPassword(row!.passwordHash, "edit-2027")).toBe(true);
    // This session stays.
    expect((await server.app.inject({ url: "/api/pandaadmin/check", headers: editor.headers })).statusCode).toBe(200);
    expect(problems).toEqual([]);
    await context.close();
  });
});
