/**
 * Taps that are never lost (ADR 0063): at 390×844, with the app's scripts held back, a tap on
 * 登录/注册 opens the dialog's frame at once and the dialog follows with no moment without one;
 * a list's play button tapped before hydration plays once the app is there; with no scripts at
 * all, or scripts that never come, the trigger is a link to /login.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launchBrowser } from "./browser";
import { type DemoItems, findDemoItems, mediaState } from "./player-helpers";
import { ROOT, startWebServer, watchProblems } from "./web-server";

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, locale: "zh-CN" };
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let demo: DemoItems;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mkdirSync(path.join(ROOT, "test-results", "screens"), { recursive: true });
  server = await startWebServer();
  browser = await launchBrowser();
  demo = await findDemoItems(server.url);
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.close();
});

/** A phone page whose scripts (everything under /assets/*.js) wait until `release()`. */
async function heldPage(options: { clock?: boolean } = {}) {
  const context = await browser.newContext(PHONE);
  contexts.push(context);
  if (options.clock) await context.clock.install();
  const page = await context.newPage();
  const problems = await watchProblems(page);
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/[^?]+\.js(\?|$)/, (route) => (released ? route.continue() : void held.push(route)));
  const release = async () => {
    released = true;
    for (const r of held.splice(0)) await r.continue();
  };
  return { page, problems, held, release };
}

const trigger = (page: Page) => page.locator('[data-early-tap="login"]');
const notHydrated = (page: Page) => page.evaluate(() => !document.documentElement.dataset.hydrated);

describe("taps before the app has hydrated", () => {
  it("登录/注册 tapped before the scripts arrive shows the dialog at once, and the form follows without a gap", async () => {
    const { page, problems, held, release } = await heldPage();
    await page.goto(`${server.url}/`, { waitUntil: "commit" });
    await trigger(page).tap();
    // No script of the app has run: the frame is the server's, shown by the inline handler.
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect(await notHydrated(page)).toBe(true);
    expect(await page.getByRole("dialog", { name: "登录/注册" }).isVisible()).toBe(true);
    expect(await trigger(page).getAttribute("data-tap-pending")).toBe("");
    await page.screenshot({ path: path.join(ROOT, "test-results", "screens", "early-login-frame.png") });
    // From here on, every frame: some login dialog is on screen until the form is.
    await page.evaluate(() => {
      const w = window as unknown as { gaps: number; frames: number };
      w.gaps = 0;
      w.frames = 0;
      const tick = () => {
        const shown = [...document.querySelectorAll("[data-login-frame] [role=dialog], .ant-modal")].some((el) => el.getClientRects().length > 0);
        if (!shown) w.gaps++;
        w.frames++;
        if (!document.querySelector(".ant-modal input")) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const t0 = Date.now();
    await release();
    // Within 300 ms of the scripts (it never closed in between).
    await expect.poll(() => page.getByRole("dialog").first().isVisible(), { timeout: 300 }).toBe(true);
    await hydrated(page);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: "注册" }).waitFor();
    await dialog.getByRole("textbox").first().waitFor();
    console.log(`login dialog: form ${Date.now() - t0} ms after the scripts were let through`);
    const seen = await page.evaluate(() => {
      const w = window as unknown as { gaps: number; frames: number };
      return { gaps: w.gaps, frames: w.frames };
    });
    expect(seen.frames).toBeGreaterThan(0);
    expect(seen.gaps).toBe(0);
    // One dialog: the frames have handed over to it; the trigger is no longer pending.
    await expect.poll(() => page.locator("[data-login-frame]").filter({ visible: true }).count()).toBe(0);
    await expect.poll(() => trigger(page).getAttribute("data-tap-pending")).toBeNull();
    expect(page.url()).toBe(`${server.url}/`);
    expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  });

  it("the early frame's close button closes it, and the dialog does not open once the app is there", async () => {
    const { page, release } = await heldPage();
    await page.goto(`${server.url}/`, { waitUntil: "commit" });
    await trigger(page).tap();
    await page.getByRole("dialog", { name: "登录/注册" }).getByRole("button", { name: "关闭" }).tap();
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    await release();
    await hydrated(page);
    await page.waitForTimeout(500);
    expect(await page.getByRole("dialog").count()).toBe(0);
    // After hydration the trigger opens the dialog (its frame first) at once.
    await trigger(page).tap();
    await page.getByRole("dialog").getByRole("tab", { name: "注册" }).waitFor();
  });

  it("a list's play button tapped before hydration plays its item once the app is there", async () => {
    const { page, release } = await heldPage();
    const item = demo.loops[0];
    await page.goto(`${server.url}${demo.longMix.channel.url}`, { waitUntil: "commit" });
    await page.getByRole("button", { name: `播放 ${item.title}`, exact: true }).tap();
    expect(await notHydrated(page)).toBe(true);
    await release();
    await hydrated(page);
    await expect.poll(() => page.locator("[data-mini-player]").innerText()).toContain(item.title);
    await expect.poll(async () => (await mediaState(page)).paused).toBe(false);
  });

  it("with scripts that never arrive, the tap goes to /login after 10 s", async () => {
    const { page } = await heldPage({ clock: true });
    await page.goto(`${server.url}/`, { waitUntil: "commit" });
    await trigger(page).tap();
    expect(await page.getByRole("dialog", { name: "登录/注册" }).isVisible()).toBe(true);
    await page.clock.fastForward(10_500);
    await page.waitForURL(`${server.url}/login`);
  });

  it("with JavaScript off, 登录/注册 is a link to the login page", async () => {
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await trigger(page).tap();
    await page.waitForURL(`${server.url}/login`);
    expect(await page.locator("input").count()).toBeGreaterThan(1);
  });
});
