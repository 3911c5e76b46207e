import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { hydrated } from "./browser";

const SCREENS = process.env.SHOTS_DIR ?? path.join("test-results", "screens");

/** The first-start admin's password after `signInFirstStartAdmin` has changed it. */
export const FIRST_ADMIN_NEW_PASSWORD = "first-admin-new-1";

/**
 * Signs in as the account made at first start, with the password its server wrote to
 * DATA_DIR/initial-admin-password.txt (a piped log never carries it), and changes that password
 * in the dialog the back office opens first (issue 25). Ends on /panda/ with every screen open.
 */
export async function signInFirstStartAdmin(page: Page, site: { url: string; dataDir: string }): Promise<void> {
  const initial = readFileSync(path.join(site.dataDir, "initial-admin-password.txt"), "utf8").trim();
  await page.goto(`${site.url}/panda/login`);
  await hydrated(page);
  await page.getByLabel("账号", { exact: true }).fill("admin");
  await page.getByLabel("密码", { exact: true }).fill(initial);
  await page.locator("form#admin-login").getByRole("button", { name: "登录" }).click();
  await page.waitForURL(`${site.url}/panda/`);
  const dialog = page.getByRole("dialog", { name: "请先修改初始密码" });
  await dialog.waitFor();
  // The picture after the dialog's opening animation (antd's zoom, ~0.3 s).
  await dialog.getByLabel("原密码", { exact: true }).waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(SCREENS, "first-admin-password.png") });
  await dialog.getByLabel("原密码", { exact: true }).fill(initial);
  await dialog.getByLabel("新密码", { exact: true }).fill(FIRST_ADMIN_NEW_PASSWORD);
  await dialog.getByLabel("确认新密码", { exact: true }).fill(FIRST_ADMIN_NEW_PASSWORD);
  await dialog.getByRole("button", { name: "保存" }).click();
  await page.locator(".ant-message-notice").getByText("密码修改成功").first().waitFor();
  await dialog.waitFor({ state: "hidden" });
}
