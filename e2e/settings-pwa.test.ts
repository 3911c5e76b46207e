/**
 * Site settings everywhere and the installable site, in Debian's Chromium (ADR 0066):
 * - an admin renames the site in 站点设置: the back office's header, the navbar brand and the
 *   <title> of the home, a category and a suite page follow on the next load;
 * - the manifest (named by the settings) and its icons, the service worker registered and
 *   activated; offline, a page load shows "网络已断开" with the member's favourites seen online,
 *   and nothing but the shell, hashed files and that list was kept.
 * Screenshots go to /tmp/shots-settings-pwa/.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../server/db/sql";
import { createTestAdmin } from "../server/testing/admins";
import { createTestUser } from "../server/testing/users";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-settings-pwa";
const NEW_TITLE = "夜店DJ舞曲站";
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let suite: { id: number; title: string };
let categoryTitle: string;

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startWebServer({ suites: 12, singles: 4 });
  browser = await launchBrowser();
  const db = server.app.deps.database.db;
  [suite] = await queryRows<{ id: number; title: string }>(db, sql`select id, title from items where status = 'normal' and kind = 'mix' order by id limit 1`);
  [{ title: categoryTitle }] = await queryRows<{ title: string }>(db, sql`select seo_title as title from categories where diyname = 'manyao'`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the site title of the settings, everywhere", () => {
  it("renames the back office's header, the navbar brand and every page's <title>", async () => {
    const admin = await createTestAdmin(server.app.deps.database.db, { role: "super", username: "title-boss" });
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 }, locale: "zh-CN" });
    const problems = await watchProblems(page);
    await page.addInitScript((t) => localStorage.setItem("admin_token", t), admin.token);
    await page.goto(`${server.url}/panda/settings`);
    await hydrated(page);
    const header = page.locator("header");
    await header.getByRole("link", { name: "DJ搜索引擎网" }).waitFor();
    await expect.poll(() => page.title()).toBe("站点设置 - DJ搜索引擎网");
    const form = page.getByTestId("settings-form");
    await form.getByLabel("站点标题").fill(NEW_TITLE);
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText("保存成功").waitFor();
    // The header and this screen's title follow at once (the layout's data is read again).
    await header.getByRole("link", { name: NEW_TITLE }).waitFor();
    await expect.poll(() => page.title()).toBe(`站点设置 - ${NEW_TITLE}`);
    await shot(page, "admin-settings-1366");
    expect(problems).toEqual([]);
    await page.close();

    for (const [route, title, viewport] of [
      ["/", NEW_TITLE, { width: 1366, height: 900 }],
      ["/sort/manyao", `${categoryTitle} - ${NEW_TITLE}`, { width: 390, height: 844 }],
      [`/sutie/${suite.id}.html`, `${suite.title} - ${NEW_TITLE}`, { width: 1366, height: 900 }],
    ] as const) {
      const pub = await browser.newPage({ viewport, locale: "zh-CN" });
      const pubProblems = await watchProblems(pub);
      await pub.goto(`${server.url}${route}`);
      await hydrated(pub);
      await expect.poll(() => pub.title(), { message: route }).toBe(title);
      const brand = pub.getByRole("banner").getByRole("link", { name: NEW_TITLE, exact: true });
      await expect.poll(() => brand.isVisible(), { message: route }).toBe(true);
      // (Narrow screens show the mark only; the link keeps its name.)
      expect(await brand.textContent(), route).toBe(NEW_TITLE);
      expect(await pub.getByText("DJ搜索引擎网").count(), route).toBe(0);
      await shot(pub, `brand${route.replace(/[/.]+/g, "-")}-${viewport.width}`);
      expect(pubProblems, route).toEqual([]);
      await pub.close();
    }
  });
});

describe("the installable site", () => {
  it("links a valid manifest named by the settings, with icons of the sizes it states", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, locale: "zh-CN" });
    await page.goto(`${server.url}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    expect(href).toBe("/manifest.webmanifest");
    const manifest = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { type: res.headers.get("content-type"), body: await res.json() };
    }, href!);
    expect(manifest.type).toBe("application/manifest+json; charset=utf-8");
    expect(manifest.body).toMatchObject({ name: NEW_TITLE, short_name: NEW_TITLE, start_url: "/", scope: "/", display: "standalone", theme_color: "#15121f", lang: "zh-CN" });
    expect(manifest.body.icons.map((i: { purpose: string }) => i.purpose).sort()).toEqual(["any", "any", "maskable"]);
    for (const icon of manifest.body.icons as { src: string; sizes: string; type: string }[]) {
      const res = await fetch(new URL(icon.src, server.url));
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get("content-type"), icon.src).toBe(icon.type);
      const { width, height, format } = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
      expect(format).toBe("png");
    }
    await page.close();
  });

  it("registers the worker; offline, a page load shows 网络已断开 with the favourites seen online, and nothing else was kept", async () => {
    const member = await createTestUser(server.app, { nickname: "离线听众" });
    const [a, b] = await queryRows<{ id: number; title: string }>(
      server.app.deps.database.db,
      sql`select id, title from items where status = 'normal' order by id desc limit 2`,
    );
    for (const item of [a!, b!]) {
      const res = await fetch(`${server.url}/api/user/favorite`, { method: "POST", headers: { ...{ "content-type": "application/json" }, authorization: `Bearer ${member.token}` }, body: JSON.stringify({ id: item.id }) });
      expect((await res.json()).code).toBe(1);
    }
    // The one context of the suite with the service worker (e2e/browser.ts blocks it elsewhere).
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", deviceScaleFactor: 2, serviceWorkers: "allow" });
    await context.addInitScript((token) => {
      if (sessionStorage.getItem("signed-out") !== "1") localStorage.setItem("token", token);
    }, member.token);
    const page = await context.newPage();
    const problems = await watchProblems(page);
    await page.goto(`${server.url}/`);
    await hydrated(page);
    // `ready` resolves once a worker is active, which may still be "activating" on a busy machine.
    const worker = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return { scope: registration.scope, state: registration.active?.state, script: registration.active?.scriptURL };
      });
    await expect.poll(worker, { timeout: 15_000 }).toEqual({ scope: `${server.url}/`, state: "activated", script: `${server.url}/sw.js` });
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL), { timeout: 15_000 }).toBe(`${server.url}/sw.js`);

    // Online: the favourites list (kept for the offline page), a suite page (its API calls are
    // not kept), the back office's login (never kept).
    const listed = page.waitForResponse((r) => r.url().includes("/api/user/favorites"));
    await page.goto(`${server.url}/user/favorites`);
    await hydrated(page);
    await listed;
    await page.getByText(a!.title).first().waitFor();
    await page.goto(`${server.url}/sutie/${suite.id}.html`);
    await hydrated(page);
    await page.goto(`${server.url}/panda/login`);
    await hydrated(page);
    const kept = await page.evaluate(async () => {
      const all: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) all.push(`${name.replace(/-.*/, "")} ${new URL(request.url).pathname}`);
      return all;
    });
    expect(kept).toContain("favourites /api/user/favorites");
    expect(kept).toContain("shell /offline.html");
    expect(kept.some((k) => k.startsWith("assets /assets/"))).toBe(true);
    const unexpected = kept.filter(
      (k) => !/^assets \/assets\/[^/]+$/.test(k) && !/^shell \/(offline\.html|offline\.js|manifest\.webmanifest|favicon\.svg|icons\/icon-192\.png)$/.test(k) && k !== "favourites /api/user/favorites",
    );
    expect(unexpected).toEqual([]);

    await context.setOffline(true);
    await page.goto(`${server.url}/sort/digao`);
    await page.getByRole("heading", { level: 1, name: "网络已断开" }).waitFor();
    const favourites = page.getByRole("region", { name: "我的收藏" });
    await favourites.getByText(a!.title).waitFor();
    await favourites.getByText(b!.title).waitFor();
    await expect.poll(() => page.title()).toBe(`网络已断开 - ${NEW_TITLE}`);
    await page.getByRole("link", { name: NEW_TITLE }).waitFor();
    await shot(page, "offline-favourites-390");
    await page.screenshot({ path: path.join(SHOTS, "offline-favourites-390-full.png"), fullPage: true });

    // Signed out (no token): the offline page shows no one's favourites.
    await page.evaluate(() => {
      sessionStorage.setItem("signed-out", "1");
      localStorage.removeItem("token");
    });
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "网络已断开" }).waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByRole("region", { name: "我的收藏" }).count()).toBe(0);
    expect(await page.getByText(a!.title).count()).toBe(0);
    await shot(page, "offline-guest-390");

    // Back online, the offline page reloads the page it stands for. (What the reload then shows
    // is not asserted: Chromium under Playwright keeps a service worker's own fetches offline
    // after setOffline(false), microsoft/playwright#2311.)
    const reloaded = page.waitForEvent("load", { timeout: 15_000 });
    await context.setOffline(false);
    await reloaded;
    expect(new URL(page.url()).pathname).toBe("/sort/digao");
    // Only what going offline itself causes (failed requests); never a CSP violation or a script error.
    expect(problems.filter((p) => /CSP|pageerror/.test(p))).toEqual([]);
    await context.close();
  }, 120_000);
});
