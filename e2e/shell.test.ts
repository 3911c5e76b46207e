import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../server/testing/admins";
import { createTestUser } from "../server/testing/users";
import { clickUserMenuItem, hydrated, launchBrowser } from "./browser";
import {
  adminOnlyScripts,
  loadServerBuild,
  ROOT,
  startWebServer,
  watchProblems,
} from "./web-server";

const SCREENS = path.join(ROOT, "test-results", "screens");
const ADMIN_MENU_TEXTS = ["系统管理", "内容管理", "用户管理", "区块管理", "采集数据"];

let server: { close(): Promise<void> } | undefined;
let app: FastifyInstance;
let base: string;
let browser: Browser;
let build: ServerBuild;

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  const started = await startWebServer();
  server = started;
  app = started.app;
  base = started.url;
  build = await loadServerBuild();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function newPage(options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: "zh-CN",
    ...options,
  });
  const page = await context.newPage();
  const problems = await watchProblems(page);
  return { context, page, problems };
}

/** A new member signed in (the token in localStorage), on /user/profile. */
async function memberOnProfile(nickname: string, options: BrowserContextOptions = {}) {
  // Pages run without the service worker (e2e/browser.ts, ADR 0073): a failure's journal showed
  // it claiming this page and the wallet and logout calls passing page.route unseen.
  const opened = await newPage(options);
  const member = await createTestUser(app, { nickname });
  await opened.page.goto(`${base}/`);
  await opened.page.evaluate((token) => localStorage.setItem("token", token), member.token);
  await opened.page.goto(`${base}/user/profile`);
  await opened.page.getByRole("heading", { name: "个人资料" }).waitFor();
  return opened;
}

/** React has hydrated once the login button opens the dialog; also waits for idle network. */
describe("web shell (production build, CSP on)", () => {
  it("server-renders the Chinese home shell before any JavaScript", async () => {
    const response = await fetch(`${base}/`);
    expect(response.status).toBe(200);
    // A kept page (ADR 0033): the same bytes for everyone, its inline scripts allowed by hash.
    const csp = response.headers.get("content-security-policy") ?? "";
    const allowed = [...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]);
    expect(csp).not.toContain("'nonce-");
    const html = await response.text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="zh-CN">/);
    expect(html).toContain("<title>DJ搜索引擎网</title>");
    expect(html).toContain(">首页<");
    expect(html).toContain(">DJ串烧<");
    expect(html).toContain(">登录/注册<");
    expect(html).toContain("data-player-slot");
    // One stylesheet in <head> styles the first paint. The public shell renders no antd
    // component, so none of antd's component styles (~38 KB for a Button) are inlined.
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toMatch(/<link[^>]*rel="stylesheet"[^>]*href="\/assets\/public-styles-[^"]+\.css/);
    expect(head).not.toMatch(/\.ant-(btn|menu|dropdown)\b/);
    // Every inline script, and only those, is allowed by its hash.
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline.length).toBeGreaterThan(0);
    expect(new Set(inline.map((s) => createHash("sha256").update(s).digest("base64")))).toEqual(new Set(allowed));
    for (const text of ADMIN_MENU_TEXTS) expect(html).not.toContain(text);
    // The scripts start after the first paint (finish-document.ts): no module preloads, and
    // React Router's script imports the route modules dynamically. If a React Router upgrade
    // changes its script's shape, this fails instead of the pages silently loading slower.
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).not.toMatch(/import \* as route\d+ from/);
    expect(html).toMatch(/requestAnimationFrame[^<]*\n\s*const \[route0, route1, route2\] = await Promise\.all\(\[import\("\/assets\/root-/);
  });

  it("hydrates in Chinese with no console errors and no CSP violations", async () => {
    const { context, page, problems } = await newPage();
    await page.goto(`${base}/`);
    await hydrated(page);
    await expect(page.title()).resolves.toBe("DJ搜索引擎网");
    await page.getByRole("navigation", { name: "主导航" }).waitFor();
    expect(await page.getByRole("link", { name: "DJ搜索引擎网" }).isVisible()).toBe(true);
    const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
    expect(font).toContain("Noto Sans CJK SC");
    await page.screenshot({ path: path.join(SCREENS, "home.png") });

    await page.getByRole("button", { name: "登录" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: "注册" }).waitFor();
    await expect.poll(() => dialog.getByRole("tab", { name: "登录" }).isVisible()).toBe(true);
    // offsetWidth ignores the opening animation's scale transform.
    const width = await page
      .locator(".ant-modal")
      .evaluate((el) => (el as HTMLElement).offsetWidth);
    expect(width).toBe(400);
    await page.waitForTimeout(400); // opening animation, for the picture
    await page.screenshot({ path: path.join(SCREENS, "login-dialog.png") });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("unknown addresses answer 404 and the link goes home", async () => {
    const raw = await fetch(`${base}/no/such/page`);
    expect(raw.status).toBe(404);
    expect(await raw.text()).toContain("This page could not be found");

    const { context, page, problems } = await newPage();
    const response = await page.goto(`${base}/no/such/page`);
    expect(response?.status()).toBe(404);
    await page.getByText("This page could not be found", { exact: true }).waitFor();
    await hydrated(page);
    await page.screenshot({ path: path.join(SCREENS, "not-found.png") });
    await page.getByRole("link", { name: "Back to the home page" }).click();
    await page.waitForURL(`${base}/`);
    await page.getByRole("heading", { level: 1, name: /DJ搜索引擎网/ }).waitFor();
    expect(problems.filter((p) => !p.includes("404"))).toEqual([]);
    await context.close();
  });

  it("a detail address of the wrong shape is 404 页面不存在", async () => {
    const { context, page } = await newPage();
    const response = await page.goto(`${base}/site/abc`);
    expect(response?.status()).toBe(404);
    await page.getByText("页面不存在", { exact: true }).waitFor();
    const ok = await page.goto(`${base}/sutie/12.html`);
    expect(ok?.status()).toBe(200);
    await page.getByRole("heading", { level: 1 }).waitFor();
    // The suite page has its own player controls: the bar is hidden there.
    await expect.poll(() => page.locator("[data-player-slot]").isHidden()).toBe(true);
    await context.close();
  });

  it("strips a trailing .html from category addresses", async () => {
    const response = await fetch(`${base}/sort/club.html?page=2`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/sort/club?page=2");
  });

  it("sends a guest from /user/profile to /login and remembers the target", async () => {
    const { context, page, problems } = await newPage();
    await page.goto(`${base}/user/profile`);
    await page.waitForURL(`${base}/login`);
    await page.getByRole("heading", { name: "登录" }).waitFor();
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem("login_redirect"))).toBe(
      "/user/profile",
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a logged-in user: user area, /login sends on, logout on a /user/ page goes home", async () => {
    const { context, page, problems } = await newPage();
    const member = await createTestUser(app, { nickname: "夜店小王子" });
    await page.goto(`${base}/`);
    await page.evaluate((token) => localStorage.setItem("token", token), member.token);

    await page.goto(`${base}/user/favorites`);
    await page.getByRole("heading", { name: "我的收藏" }).waitFor();
    await expect.poll(() => page.getByRole("navigation", { name: "用户中心" }).isVisible()).toBe(true);
    await page.getByText("夜店小王子").waitFor();

    await page.goto(`${base}/login`);
    await page.waitForURL(`${base}/user/profile`);
    await page.getByRole("heading", { name: "个人资料" }).waitFor();

    // The navbar's name (the profile page shows it too).
    await clickUserMenuItem(page, "夜店小王子", "退出登录", "/api/user/logout");
    await page.waitForURL(`${base}/`);
    await page.getByText("退出成功").waitFor();
    await page.getByRole("button", { name: "登录" }).waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a member call in flight when 退出登录 is clicked is answered before the session ends: no late 401", async () => {
    // Opening the user menu asks for the wallet. Beside a busy-loop it was once answered after the
    // logout had ended the session: a 401, which the browser logs as an error. Held here for 1 s.
    const { context, page, problems } = await memberOnProfile("慢钱包会员");
    const order: string[] = [];
    await page.route("**/api/user/wallet", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    page.on("response", (r) => r.url().endsWith("/api/user/wallet") && order.push(`wallet ${r.status()}`));
    page.on("request", (r) => r.url().endsWith("/api/user/logout") && order.push("logout sent"));
    // The logout is sent once the held wallet is answered: more than the helper's 3 s on a busy machine.
    await clickUserMenuItem(page, "慢钱包会员", "退出登录", "/api/user/logout", { requestWithinMs: 10_000 });
    await page.waitForURL(`${base}/`);
    await page.getByText("退出成功").waitFor();
    expect(order[0]).toBe("wallet 200");
    expect(order).toContain("logout sent");
    expect(order.filter((o) => o.startsWith("wallet")).every((o) => o === "wallet 200")).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a member call still out when the logout ends is not a lost session: home, not /login", async () => {
    // A call that hangs does not hold the logout (it waits 2 s at most). Held here until the
    // logout is done, so its 401 comes last every time.
    const { context, page } = await memberOnProfile("退出中的会员");

    let releaseWallet!: () => void;
    const walletHeld = new Promise<void>((resolve) => (releaseWallet = resolve));
    let walletAsked = false;
    await page.route("**/api/user/wallet", async (route) => {
      walletAsked = true;
      await walletHeld;
      await route.continue();
    });
    const walletAnswered = page.waitForResponse((r) => r.url().endsWith("/api/user/wallet"));
    // The logout is sent after its 2 s wait for the held wallet.
    await clickUserMenuItem(page, "退出中的会员", "退出登录", "/api/user/logout", { requestWithinMs: 10_000 });
    await page.waitForURL(`${base}/`);
    await page.getByText("退出成功").waitFor();
    expect(walletAsked).toBe(true);
    releaseWallet();
    expect((await walletAnswered).status()).toBe(401);
    // The late 401 is about a session this browser already ended: nothing moves.
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.evaluate(() => sessionStorage.getItem("login_redirect"))).toBeNull();
    await context.close();
  });

  it("antd's menus move only for a visitor who has not asked the system for reduced motion", async () => {
    for (const [reducedMotion, nickname, moves] of [["no-preference", "动效会员", true], ["reduce", "静止会员", false]] as const) {
      const { context, page, problems } = await memberOnProfile(nickname, { reducedMotion });
      await hydrated(page);
      // Every class antd puts on an element while it animates its opening, seen as it happens
      // (without motion, the popup still passes through "appear" for a moment to be placed).
      await page.evaluate(() => {
        const seen: string[] = ((window as unknown as { motionSeen: string[] }).motionSeen = []);
        const look = (el: Element) => {
          for (const name of el.classList) if (/-(enter|appear)-active$/u.test(name)) seen.push(name);
        };
        new MutationObserver((records) => {
          for (const r of records) {
            if (r.target instanceof Element) look(r.target);
            for (const node of r.addedNodes) if (node instanceof Element) [node, ...node.querySelectorAll("*")].forEach(look);
          }
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
      });
      await page.getByRole("banner").getByText(nickname).hover();
      await page.getByRole("menuitem", { name: "退出登录", exact: true }).waitFor();
      const seen = () => page.evaluate(() => (window as unknown as { motionSeen: string[] }).motionSeen);
      if (moves) await expect.poll(async () => (await seen()).some((name) => name.startsWith("ant-slide-up"))).toBe(true);
      else {
        // An absence: given the time the slide would take (~0.2 s) and more.
        await page.waitForTimeout(500);
        expect(await seen()).toEqual([]);
      }
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it("sends a guest from /panda/ to /panda/login", async () => {
    const { context, page, problems } = await newPage();
    await page.goto(`${base}/panda/`);
    await page.waitForURL(`${base}/panda/login`);
    await page.getByRole("heading", { name: "后台登录" }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("renders the admin layout for a logged-in admin; the side menu collapses to 64px", async () => {
    const { context, page, problems } = await newPage();
    // A real admin session: the screens behind the menu call the admin API with it.
    const { token } = await createTestAdmin(app.deps.database.db, { role: "super", username: "admin" });
    await context.addInitScript((t) => localStorage.setItem("admin_token", t), token);
    await page.goto(`${base}/panda/`);
    const sider = page.getByTestId("admin-sider");
    await sider.waitFor();
    // The menu is drawn before the login check answers (ADR 0064); the super's entries come with the answer.
    await expect.poll(() => page.getByTestId("admin-user").textContent()).toContain("admin");
    for (const text of [
      "系统管理",
      "控制台",
      "区块管理",
      "内容管理",
      "添加套曲",
      "套曲列表",
      "套曲分类",
      "采集数据",
      "用户管理",
      "用户列表",
    ]) {
      await expect.poll(() => sider.getByText(text, { exact: true }).isVisible()).toBe(true);
    }
    await page.getByRole("heading", { name: "控制台" }).waitFor();
    expect((await sider.boundingBox())?.width).toBe(200);
    await page.screenshot({ path: path.join(SCREENS, "admin-expanded.png") });
    await sider.getByRole("link", { name: "区块管理" }).click();
    await page.waitForURL(`${base}/panda/block`);
    await page.getByRole("heading", { name: "区块管理" }).waitFor();
    await expect.poll(() => page.locator(".ant-menu-item-selected").textContent()).toBe("区块管理");

    await page.locator(".ant-layout-sider-trigger").click();
    await page.waitForFunction(
      () =>
        document.querySelector("[data-testid=admin-sider]")?.getBoundingClientRect().width === 64,
    );
    await page.waitForTimeout(300); // let the menu's collapse animation settle for the picture
    await page.screenshot({ path: path.join(SCREENS, "admin-collapsed.png") });

    expect(problems).toEqual([]);
    await context.close();
  });

  it("public pages never download admin code", async () => {
    const adminFiles = adminOnlyScripts(build);
    const adminModules = Object.values(build.assets.routes)
      .filter((r) => r && (r.id === "layouts/admin" || r.id.startsWith("routes/panda/")))
      .map((r) => r!.module);
    expect(adminModules.length).toBeGreaterThan(8);
    const { context, page } = await newPage();
    const scripts: string[] = [];
    page.on("request", (req) => {
      if (req.resourceType() === "script") scripts.push(new URL(req.url()).pathname);
    });
    await page.goto(`${base}/`);
    await hydrated(page);
    await page.getByRole("navigation", { name: "主导航" }).getByRole("link", { name: "DJ串烧", exact: true }).click();
    await page.waitForURL(`${base}/sort/chuanshao`);
    await page.goto(`${base}/site/1.html`);
    await hydrated(page);
    expect(scripts.length).toBeGreaterThan(5);
    expect(scripts.filter((s) => adminFiles.has(s) || adminModules.includes(s))).toEqual([]);
    await context.close();
  });

  it("a chunk that fails to load reloads the page, at most once a minute", async () => {
    // Without the service worker (the default of e2e/browser.ts): it would fetch the chunk
    // itself, which page.route cannot reach, so the failure could not be staged.
    const { context, page } = await newPage();
    await page.route(/\/assets\/LoginDialog-[^/]*\.js$/, (route) => route.abort());
    await page.goto(`${base}/`);
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { __doc: number }).__doc = 1));

    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "登录" }).click();
    await reloaded;
    await hydrated(page);
    expect(await page.evaluate(() => "__doc" in window)).toBe(false);
    expect(await page.evaluate(() => sessionStorage.getItem("chunk-reload-at"))).toMatch(/^\d+$/);

    // Within 60 s: no second reload, the page stays usable and says so.
    await page.evaluate(() => ((window as unknown as { __doc: number }).__doc = 2));
    await page.getByRole("button", { name: "登录" }).click();
    await page.getByText("加载失败，请重试").waitFor();
    expect(await page.evaluate(() => (window as unknown as { __doc?: number }).__doc)).toBe(2);
    await page.getByRole("heading", { level: 1, name: /DJ搜索引擎网/ }).waitFor();
    await context.close();
  });

  it("client-side navigation keeps the document and the player slot", async () => {
    const { context, page, problems } = await newPage();
    await page.goto(`${base}/`);
    await hydrated(page);
    await page.evaluate(() => {
      (window as unknown as { __slot: Element | null }).__slot =
        document.querySelector("[data-player-slot]");
    });
    await page.getByRole("navigation", { name: "主导航" }).getByRole("link", { name: "DJ串烧", exact: true }).click();
    await page.waitForURL(`${base}/sort/chuanshao`);
    await page.getByRole("heading", { level: 1, name: "DJ串烧" }).waitFor();
    const same = await page.evaluate(
      () =>
        (window as unknown as { __slot: Element | null }).__slot ===
        document.querySelector("[data-player-slot]"),
    );
    expect(same).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
