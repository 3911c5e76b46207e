import { mkdirSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MusicInfo } from "../contracts/suite";
import { queryRows } from "../server/db/sql";
import { createTestUser, type TestUser } from "../server/testing/users";
import { hydrated, launchBrowser, settledDialogs } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

/** Screens of the personal library, looked at by the engineer who builds it. */
const SHOTS = "/tmp/shots-library";
const LINK = "https://pan.example.cn/s/1LibRaRy";

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let suite: MusicInfo;

async function info(id: number): Promise<MusicInfo> {
  return (await fetch(`${server.url}/api/forntend/getmusicinfo?id=${id}`).then((r) => r.json())).data;
}

/** A browser context signed in as `member` (the token in localStorage, as the login will leave it). */
async function memberContext(member: TestUser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "zh-CN", permissions: ["clipboard-read", "clipboard-write"] });
  await context.addInitScript((token) => localStorage.setItem("token", token), member.token);
  return context;
}

const coinsOf = async (member: TestUser) =>
  (await queryRows<{ coins: number }>(server.app.deps.database.db, sql`select coins from users where id = ${member.id}`))[0].coins;
const countText = async (page: Page, which: "likes" | "favorites") => (await page.locator(`[data-count=${which}]`).innerText()).replace(/\D/g, "");

/** Lets a dialog's opening animation or a table's loading fade finish before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(500);

/** Opens the suite page and waits until the member's state has arrived (after hydration). */
async function openSuite(page: Page, id: number) {
  const state = page.waitForResponse((r) => r.url().includes("/api/user/item-state"));
  await page.goto(`${server.url}/sutie/${id}.html`);
  await hydrated(page);
  await state;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer({ suites: 12, singles: 4 });
  browser = await launchBrowser();
  // A priced suite from another site, with its network-drive link.
  const id = 3;
  await server.app.services.writes.updateItem(id, { vipdown: "0", price: 10, weburl: LINK, webPassword: "k8s2", sourceSite: "djuu" });
  suite = await info(id);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("personal library in the browser", () => {
  it("a member favourites and likes a suite: labels flip, counts move, and the state comes back after a reload", async () => {
    const member = await createTestUser(server.app, { coins: 30, nickname: "夜猫子" });
    const context = await memberContext(member);
    const page = await context.newPage();
    const problems = await watchProblems(page);
    await openSuite(page, suite.id);
    const favs = Number(await countText(page, "favorites"));
    const likes = Number(await countText(page, "likes"));
    await expect.poll(() => page.getByText("下载在来源站点进行").count()).toBe(1); // from djuu, not our own

    await page.getByRole("button", { name: "收藏", exact: true }).click();
    await page.getByRole("button", { name: "已收藏" }).waitFor();
    await expect.poll(() => countText(page, "favorites")).toBe(String(favs + 1));
    await page.getByRole("button", { name: "推荐", exact: true }).click();
    await page.getByRole("button", { name: "已推荐" }).waitFor();
    await expect.poll(() => countText(page, "likes")).toBe(String(likes + 1));
    await page.screenshot({ path: `${SHOTS}/suite-member.png` });

    // The page's HTML has the new counts (its kept copy was dropped) and never the member's state.
    const html = await fetch(`${server.url}/sutie/${suite.id}.html`).then((r) => r.text());
    expect(html).not.toContain("已收藏");
    expect(html).not.toContain(LINK);
    await openSuite(page, suite.id);
    await page.getByRole("button", { name: "已收藏" }).waitFor();
    await expect.poll(() => countText(page, "favorites")).toBe(String(favs + 1));

    // Unliking moves it back.
    await page.getByRole("button", { name: "已推荐" }).click();
    await page.getByRole("button", { name: "推荐", exact: true }).waitFor();
    await expect.poll(() => countText(page, "likes")).toBe(String(likes));
    expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
    await context.close();
  });

  it("downloads a priced suite: the dialog says the price, the coins go once, the second download is free", async () => {
    const member = await createTestUser(server.app, { coins: 30 });
    const context = await memberContext(member);
    const page = await context.newPage();
    await openSuite(page, suite.id);

    await page.getByRole("button", { name: "下载", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("下载需要10币，当前余额30币").waitFor();
    await dialog.getByText("下载在来源站点的网盘进行").waitFor();
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/download-confirm.png` });
    await dialog.getByRole("button", { name: /确认下载/ }).click();
    await dialog.getByText("已扣除10币，当前余额20币").waitFor();
    await expect.poll(() => dialog.getByRole("textbox", { name: "网盘地址" }).inputValue()).toBe(LINK);
    await expect.poll(() => dialog.getByRole("textbox", { name: "提取码" }).inputValue()).toBe("k8s2");
    await dialog.getByRole("button", { name: "复制网盘地址" }).click();
    await page.getByText("复制成功").first().waitFor();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(LINK);
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/download-result.png` });
    expect(await coinsOf(member)).toBe(20);
    await dialog.getByRole("button", { name: "完成" }).click();
    await dialog.waitFor({ state: "hidden" });

    await page.getByRole("button", { name: "下载", exact: true }).click();
    await dialog.getByText("您已购买过该套曲，重新下载免费").waitFor();
    // Its text is found while the dialog still zooms in (at opacity 0 it counts as visible).
    await settledDialogs(page);
    await dialog.getByRole("button", { name: "确认下载" }).click();
    await dialog.getByText("本次下载未扣币，当前余额20币").waitFor();
    expect(await coinsOf(member)).toBe(20);
    await context.close();
  });

  it("too few coins: the balance, the price and how coins come; 确认下载 disabled; the server refuses too", async () => {
    const member = await createTestUser(server.app, { coins: 4 });
    const context = await memberContext(member);
    const page = await context.newPage();
    await openSuite(page, suite.id);
    await page.getByRole("button", { name: "下载", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("余额不足：当前 4 币，需要 10 币").waitFor();
    await dialog.getByText("每日签到可得金币").waitFor();
    await expect.poll(() => dialog.getByRole("button", { name: /确认下载/ }).isDisabled()).toBe(true);
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/download-short.png` });
    // A client that sends it anyway is refused with the clear message.
    const res = await server.app.inject({ method: "POST", url: "/api/user/download", headers: member.headers, payload: { id: suite.id } });
    expect(res.json()).toMatchObject({ code: 0, msg: "币不足，下载需要10币，当前余额4币" });
    expect(await coinsOf(member)).toBe(4);
    await context.close();
  });

  it("comments: a member posts, the text shows as text (<b> is not bold), newest first", async () => {
    const member = await createTestUser(server.app, { nickname: "评论员" });
    const context = await memberContext(member);
    const page = await context.newPage();
    await openSuite(page, suite.id);
    await page.getByText("暂无评论，快来抢沙发吧~").waitFor();
    await page.getByRole("textbox", { name: "评论内容" }).fill("<b>x</b> 太好听了");
    await page.getByRole("button", { name: "发表评论" }).click();
    const list = page.getByRole("list", { name: "评论列表" });
    await list.getByText("<b>x</b> 太好听了").waitFor();
    expect(await list.locator("b").count()).toBe(0);
    await expect.poll(() => list.innerText()).toContain("评论员");
    // A visitor sees it too, after hydration.
    const guest = await browser.newPage();
    await guest.goto(`${server.url}/sutie/${suite.id}.html`);
    await guest.getByRole("list", { name: "评论列表" }).getByText("<b>x</b> 太好听了").waitFor();
    await guest.getByRole("heading", { name: /评论/ }).scrollIntoViewIfNeeded();
    await guest.screenshot({ path: `${SHOTS}/comments-guest.png` });
    await guest.close();
    await context.close();
  });

  it("guests get the login dialog for favourite, like and download", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/sutie/${suite.id}.html`);
    await hydrated(page);
    for (const name of ["收藏", "推荐", "下载"]) {
      await page.getByRole("button", { name, exact: true }).click();
      await page.getByRole("dialog").getByRole("tab", { name: "登录" }).waitFor();
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "hidden" });
    }
    await page.close();
  });

  it("a session ended elsewhere: the next member call clears the token, goes to /login and comes back after login", async () => {
    const member = await createTestUser(server.app);
    const context = await memberContext(member);
    const page = await context.newPage();
    await openSuite(page, suite.id);
    // The page's own member calls (the related lists' item states come after the suite's) have
    // all answered: the 收藏 click below is the call that finds the session gone.
    await page.waitForLoadState("networkidle");
    // The password was changed on another device: every session of the member ends.
    await server.app.services.sessions.revokeUserSessions(member.id);
    await page.getByRole("button", { name: "收藏", exact: true }).click();
    await page.waitForURL(`${server.url}/login`);
    await expect.poll(() => page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem("login_redirect"))).toBe(`/sutie/${suite.id}.html`);
    await page.getByRole("heading", { name: "登录" }).waitFor();
    await hydrated(page);
    // No login dialog over the login page (beside a CPU-bound process one once opened here: the
    // 收藏 button found the session gone while the page was on its way; the page closes it, and
    // its closing takes a moment).
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    await page.getByLabel("用户名/邮箱").fill(member.username);
    await page.getByLabel("密码", { exact: true }).fill(member.password);
    await page.getByRole("main").getByRole("button", { name: "登录", exact: true }).click();
    await page.waitForURL(`${server.url}/sutie/${suite.id}.html`);
    await expect.poll(() => page.evaluate(() => localStorage.getItem("token"))).not.toBeNull();
    await context.close();
  });

  it("lists: a member's hearts come after hydration, a click favourites the row's item, and a guest gets the login dialog", async () => {
    const member = await createTestUser(server.app);
    const context = await memberContext(member);
    const page = await context.newPage();
    const states = page.waitForResponse((r) => r.url().includes("/api/user/item-state"));
    await page.goto(`${server.url}/`);
    await hydrated(page);
    await states;
    const heart = page.locator("[data-favorite-item]").first();
    const id = Number(await heart.getAttribute("data-favorite-item"));
    expect(await heart.getAttribute("aria-pressed")).toBe("false");
    const before = (await info(id)).countFavorites;
    await heart.click();
    await page.getByText("收藏成功").waitFor();
    await expect.poll(() => heart.getAttribute("aria-pressed")).toBe("true");
    expect((await info(id)).countFavorites).toBe(before + 1);
    await page.screenshot({ path: `${SHOTS}/list-hearts.png` });
    // After a reload the mark comes back from the server, on every row of that item.
    await page.reload();
    await hydrated(page);
    await page.locator(`[data-favorite-item="${id}"][aria-pressed="true"]`).first().waitFor();
    await context.close();

    const guest = await browser.newPage();
    await guest.goto(`${server.url}/`);
    await hydrated(guest);
    await guest.locator("[data-favorite-item]").first().click();
    await guest.getByRole("dialog").getByRole("tab", { name: "登录" }).waitFor();
    await guest.close();
  });

  it("the favourites page: the name plays, the download goes through the dialog, unfavourite empties it", async () => {
    const member = await createTestUser(server.app, { coins: 50 });
    await server.app.inject({ method: "POST", url: "/api/user/favorite", headers: member.headers, payload: { id: suite.id } });
    const context = await memberContext(member);
    const page = await context.newPage();
    await page.goto(`${server.url}/user/favorites`);
    const row = page.getByRole("row").filter({ hasText: suite.title });
    await row.waitFor();
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/favorites.png` });
    await row.getByRole("button", { name: suite.title }).click();
    await page.locator("[data-player-slot]").getByText(suite.title).first().waitFor();
    await row.getByRole("button", { name: /下载/ }).click();
    await page.getByRole("dialog").getByText("下载需要10币，当前余额50币").waitFor();
    await page.keyboard.press("Escape");
    await row.getByRole("button", { name: "取消收藏" }).click();
    await page.getByText("暂无收藏").waitFor();
    await context.close();
  });

  it("the downloads page: title links to the suite, China time, free re-download with the link; paginated past 10", async () => {
    const member = await createTestUser(server.app, { coins: 10 });
    for (let i = 0; i < 11; i++) {
      await server.app.inject({ method: "POST", url: "/api/user/download", headers: member.headers, payload: { id: suite.id } });
    }
    const context = await memberContext(member);
    const page = await context.newPage();
    await page.goto(`${server.url}/user/downloads`);
    const rows = page.getByRole("row").filter({ hasText: suite.title });
    await rows.first().waitFor();
    await expect.poll(() => rows.count()).toBe(10);
    expect(await rows.first().getByRole("link", { name: suite.title }).getAttribute("href")).toBe(`/sutie/${suite.id}.html`);
    expect(await rows.first().innerText()).toMatch(/\d{4}年\d{2}月\d{2}日 \d{2}:\d{2}:\d{2}/);
    await expect.poll(() => page.locator(".ant-pagination-item-2").count()).toBe(1); // the second page
    await page.screenshot({ path: `${SHOTS}/downloads.png`, fullPage: true });
    await rows.first().getByRole("button", { name: "重新下载" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("您已购买过该套曲，重新下载免费").waitFor();
    // Its text is found while the dialog still zooms in (at opacity 0 it counts as visible).
    await settledDialogs(page);
    await dialog.getByRole("button", { name: "确认下载" }).click();
    await dialog.getByText("本次下载未扣币，当前余额0币").waitFor();
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/downloads-redownload.png` });
    expect(await coinsOf(member)).toBe(0);

    const empty = await createTestUser(server.app);
    const other = await memberContext(empty);
    const blank = await other.newPage();
    await blank.goto(`${server.url}/user/downloads`);
    await blank.getByText("暂无下载记录").waitFor();
    expect(await blank.locator(".ant-pagination").count()).toBe(0);
    await other.close();
    await context.close();
  });

  it("on login the browser's resume points join the account, and an empty player takes the account's queue", async () => {
    const member = await createTestUser(server.app);
    const other = await info(5);
    await server.app.inject({ method: "PUT", url: "/api/user/player/queue", headers: member.headers, payload: { ids: [other.id, suite.id], index: 0 } });
    const context = await memberContext(member);
    const at = Date.now();
    await context.addInitScript(
      ([id, at]) => localStorage.setItem("dj-player-resume", JSON.stringify({ [id]: { position: 321, duration: 3600, at } })),
      [suite.id, at] as const,
    );
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await hydrated(page);
    await page.locator("[data-player-slot]").getByText(other.title).first().waitFor();
    await expect
      .poll(async () => (await server.app.inject({ url: "/api/user/player", headers: member.headers })).json().data.positions)
      .toEqual([{ id: suite.id, position: 321, duration: 3600, updatedAt: at }]);
    await context.close();
  });
});
