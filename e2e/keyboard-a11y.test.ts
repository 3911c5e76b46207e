/**
 * The public pages by keyboard alone and for screen readers (issue 13, "accessible to
 * everyone"): the search box and the global player are reached with Tab, worked with
 * Enter/Space, show where the focus is, and Escape closes what they opened; every control
 * has a name, and icon-only buttons a Chinese one.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launchBrowser } from "./browser";
import { type DemoItems, findDemoItems, mediaState } from "./player-helpers";
import { startWebServer, watchProblems } from "./web-server";

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let demo: DemoItems;

beforeAll(async () => {
  server = await startWebServer();
  browser = await launchBrowser();
  demo = await findDemoItems(server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string, width = 1280): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, locale: "zh-CN" });
  const page = await context.newPage();
  const problems = await watchProblems(page);
  await page.goto(`${server.url}${path}`);
  await hydrated(page);
  return { context, page, problems };
}

/** What has the focus: its accessible label (aria-label, else its text) and whether the focus shows. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "", visible: false, inPlayer: false, inDialog: "" };
    const style = getComputedStyle(el);
    return {
      name: el.getAttribute("aria-label") ?? (el as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? el.textContent?.trim() ?? "",
      // A keyboard focus is drawn: :focus-visible matches and leaves an outline (or a ring).
      visible: el.matches(":focus-visible") && ((style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none"),
      inPlayer: !!el.closest("[data-player-bar]"),
      inDialog: el.closest("[role=dialog]")?.getAttribute("aria-label") ?? "",
    };
  });
}

/** Presses Tab until the focused control is named `name` (and, if asked, is in the player bar). */
async function tabTo(page: Page, name: string, where: { inPlayer?: boolean } = {}, limit = 250) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    if (now.name === name && (where.inPlayer === undefined || now.inPlayer === where.inPlayer)) {
      expect(now.visible, `focus on ${name} is visible`).toBe(true);
      return;
    }
  }
  throw new Error(`Tab never reached ${name}`);
}

const playerButton = (page: Page, name: string) => page.locator("[data-player-bar]").getByRole("button", { name, exact: true });

describe("keyboard only", () => {
  it("searches from the home page, plays a hit, works the player, and Escape closes the results and the playlist", async () => {
    const { context, page, problems } = await open("/");
    const title = demo.longMix.title;

    // The keyword box is reached with Tab; Enter searches.
    await tabTo(page, "搜索关键词");
    await page.keyboard.type(title);
    // The type switch is reached and set with Space; back to audio.
    await tabTo(page, "视频");
    await page.keyboard.press("Space");
    await expect.poll(() => page.getByRole("radio", { name: "视频" }).getAttribute("aria-checked")).toBe("true");
    await page.keyboard.press("Shift+Tab");
    await expect.poll(async () => (await focused(page)).name).toBe("音频");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("radio", { name: "音频" }).getAttribute("aria-checked")).toBe("true");
    await tabTo(page, "搜索");
    await page.keyboard.press("Enter");
    const results = page.getByText(`“${title}” 找到`);
    await results.waitFor();

    // A hit's play button is reached with Tab; Enter plays it in the global player.
    await tabTo(page, `播放 ${title}`);
    await page.keyboard.press("Enter");
    await playerButton(page, "暂停").waitFor();
    await expect.poll(async () => (await mediaState(page)).paused, { timeout: 15_000 }).toBe(false);

    // Escape in the results closes them and gives the keyword box the focus back.
    await page.keyboard.press("Escape");
    await results.waitFor({ state: "detached" });
    await expect.poll(async () => (await focused(page)).name).toBe("搜索关键词");

    // The player bar: its pause button is reached with Tab; Space pauses, Enter plays again.
    await tabTo(page, "暂停", { inPlayer: true });
    await page.keyboard.press("Space");
    await expect.poll(async () => (await mediaState(page)).paused).toBe(true);
    await expect.poll(async () => (await focused(page)).name).toBe("播放"); // the same button, relabelled
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await mediaState(page)).paused).toBe(false);

    // Mute with Enter; the volume slider moves with the arrow keys.
    await tabTo(page, "静音", { inPlayer: true });
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await mediaState(page)).muted).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await mediaState(page)).muted).toBe(false);
    await tabTo(page, "音量", { inPlayer: true });
    const volume = (await mediaState(page)).volume;
    await page.keyboard.press("ArrowLeft");
    await expect.poll(async () => (await mediaState(page)).volume).toBeLessThan(volume);

    // The playlist opens with Enter and takes the focus; Escape closes it and gives it back.
    await tabTo(page, "播放列表", { inPlayer: true });
    await page.keyboard.press("Enter");
    const panel = page.getByRole("dialog", { name: "播放列表" });
    await panel.waitFor();
    await expect.poll(async () => (await focused(page)).inDialog).toBe("播放列表");
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
    await expect.poll(() => focused(page)).toMatchObject({ name: "播放列表", inPlayer: true });

    expect(problems).toEqual([]);
    await context.close();
  });

  it("logs in from the login page with the keyboard (password shown and hidden with its button)", async () => {
    const { context, page, problems } = await open("/login");
    await tabTo(page, "用户名/邮箱");
    await page.keyboard.type("nobody-here");
    await page.keyboard.press("Tab");
    await page.keyboard.type("wrong-password");
    await tabTo(page, "显示密码");
    await page.keyboard.press("Space");
    await expect.poll(() => page.getByLabel("密码", { exact: true }).getAttribute("type")).toBe("text");
    await expect.poll(async () => (await focused(page)).name).toBe("隐藏密码");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByLabel("密码", { exact: true }).getAttribute("type")).toBe("password");
    // Enter in a field sends the form; the server's refusal is a toast.
    await page.getByLabel("密码", { exact: true }).focus();
    await page.keyboard.press("Enter");
    await page.locator(".ant-message-notice").first().waitFor();
    // An empty account is refused in the form, next to the field, and the field gets the focus.
    await page.getByLabel("用户名/邮箱").fill("");
    await page.getByLabel("密码", { exact: true }).focus();
    await page.keyboard.press("Enter");
    await page.getByText("请输入用户名/邮箱", { exact: true }).waitFor();
    await expect.poll(() => page.getByLabel("用户名/邮箱").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(async () => (await focused(page)).name).toBe("用户名/邮箱");
    expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
    await context.close();
  });
});

/**
 * The controls Chromium's accessibility tree leaves without a name, and the icon-only buttons
 * (no text of their own) with their names. (Icon links are logos named by the site's name.)
 */
async function controls(page: Page) {
  const tree = await page.locator("body").ariaSnapshot();
  const unnamed = tree
    .split("\n")
    .filter((line) => /^\s*- (button|link|textbox|searchbox|combobox|slider|radio|tab|checkbox|menuitem)\s*(\[[^\]]*\])?\s*:?\s*$/.test(line));
  const iconButtons = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("button, [role=button]")]
      .filter((el) => el.getClientRects().length > 0 && !el.closest("[aria-hidden=true]") && !el.textContent?.trim())
      .map((el) => ({ html: el.outerHTML.slice(0, 120), name: el.getAttribute("aria-label") ?? el.querySelector("img")?.getAttribute("alt") ?? "" })),
  );
  return { unnamed, iconButtons };
}

describe("screen-reader names", () => {
  it("every control on home, category, detail and login has a name; icon-only buttons a Chinese one", async () => {
    const id = demo.longMix.id;
    for (const [path, width] of [["/", 1280], [demo.longMix.channel.url, 1280], [`/sutie/${id}.html`, 1280], ["/login", 1280], ["/", 390]] as const) {
      const { context, page, problems } = await open(path, width);
      // With something playing, so the player bar's buttons are there too.
      if (path !== "/login") {
        // (The detail page plays in its own controls: the bar is hidden there.)
        if (path.startsWith("/sutie/")) {
          await page.locator("main").getByRole("button", { name: "播放", exact: true }).click();
          await page.locator("main").getByRole("button", { name: "暂停", exact: true }).waitFor();
        } else {
          await page.locator("[data-play-item]:visible").first().click();
          // Phones get the mini bar instead of the desktop bar (ADR 0063).
          await page.locator(width < 769 ? "[data-mini-player]" : "[data-player-bar]").waitFor();
        }
      }
      const { unnamed, iconButtons } = await controls(page);
      expect(unnamed, `${path} at ${width} px`).toEqual([]);
      // The check sees them: the eye of the password on the login page; the player bar's and the
      // lists' play and favourite buttons elsewhere (the detail page has text buttons only).
      const least = path === "/login" ? 1 : path.startsWith("/sutie/") ? 0 : 4;
      expect(iconButtons.length, `${path}: icon-only buttons found`).toBeGreaterThanOrEqual(least);
      for (const b of iconButtons) expect(b.name, b.html).toMatch(/[\u4e00-\u9fff]/);
      expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
      await context.close();
    }
  });
});
