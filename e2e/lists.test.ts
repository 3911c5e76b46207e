import type { Browser, Page } from "playwright-core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categories } from "../server/db/schema/index";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

/**
 * Lists as DJ sites show them (ADR 0062): whole titles on phones, every menu item reachable,
 * page numbers with a jump box, 播放全部, and a suite's more-by-DJ and related lists.
 */
let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
/** 20 CJK characters: a phone must show it whole (two lines at most), not "武汉夜店阿…". */
const LONG_TITLE = "武汉夜店阿华中文慢摇串烧车载音乐精选合集";
const ARTIST = "DJ列表阿华";
const KEYWORD = "列表测试";
/** 64 items of ours: 7 pages of the category (10 a page) beyond the demo's, 13 of search (5 a page). */
const ADDED = 64;
let longId = 0;

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

beforeAll(async () => {
  server = await startWebServer();
  browser = await launchBrowser();
  const { writes } = server.app.services;
  const [chuanshao] = await writes.transaction((_w, tx) => tx.select().from(categories).where(eq(categories.diyname, "chuanshao")));
  const now = Date.now();
  // A demo item's media: 播放全部 really loads it.
  const demo = (await (await fetch(`${server.url}/api/forntend/getsort?diyname=chuanshao`)).json()) as { data: { list: { palyurl: string }[] } };
  const playUrl = demo.data.list[0].palyurl;
  const add = (title: string, minutes: number) =>
    writes.createItem({
      kind: "mix",
      title,
      artist: ARTIST,
      playUrl,
      sourceSite: "local",
      categoryId: chuanshao.id,
      publishedAt: new Date(now + minutes * 60_000),
    });
  for (let n = 0; n < ADDED; n++) await add(`${KEYWORD}串烧第${n + 1}辑`, -(n + 1));
  longId = await add(LONG_TITLE, 1);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string, viewport: { width: number; height: number }) {
  const page = await browser.newPage({ viewport, locale: "zh-CN" });
  const problems = await watchProblems(page);
  await page.goto(`${server.url}${path}`);
  await hydrated(page);
  return { page, problems };
}

/** A name shown whole: on at most two lines and not clamped (nothing hidden below or beside). */
async function shownWhole(page: Page, name: string) {
  const link = page.getByRole("link", { name, exact: true }).first();
  return link.evaluate((el) => {
    const style = getComputedStyle(el);
    const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.4;
    const rect = el.getBoundingClientRect();
    return {
      lines: Math.round(rect.height / lineHeight),
      clipped: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
      width: rect.width,
    };
  });
}

/** The player's playlist as kept in localStorage. */
const playlist = (page: Page) =>
  page.evaluate(() => {
    const kept = JSON.parse(localStorage.getItem("dj-player") ?? "{}") as { state?: { items?: { id: number | string; name: string }[]; index?: number } };
    return { names: (kept.state?.items ?? []).map((i) => i.name), index: kept.state?.index ?? -1 };
  });

describe("lists on a phone and on a desktop", () => {
  it("a 20-character title shows whole on a phone (two lines at most, its facts under it); a desktop keeps one line", async () => {
    const { page, problems } = await open("/sort/chuanshao", PHONE);
    const phone = await shownWhole(page, LONG_TITLE);
    expect(phone.clipped).toBe(false);
    expect(phone.lines).toBeLessThanOrEqual(2);
    const row = page.locator("main ol li").first();
    const [nameBox, dateBox] = await Promise.all([
      row.getByRole("link").boundingBox(),
      row.getByText(/^\d{4}年\d{1,2}月\d{1,2}日$/).boundingBox(),
    ]);
    expect(dateBox!.y).toBeGreaterThanOrEqual(nameBox!.y + nameBox!.height - 1); // the date under the name
    await page.screenshot({ path: "/tmp/lists-category-phone.png", fullPage: false });

    await page.setViewportSize(DESKTOP);
    const desk = await shownWhole(page, LONG_TITLE);
    expect(desk.lines).toBe(1);
    expect(desk.clipped).toBe(false);
    const [name2, date2] = await Promise.all([row.getByRole("link").boundingBox(), row.getByText(/^\d{4}年\d{1,2}月\d{1,2}日$/).boundingBox()]);
    expect(Math.abs(name2!.y + name2!.height / 2 - (date2!.y + date2!.height / 2))).toBeLessThan(6); // one line
    await page.screenshot({ path: "/tmp/lists-category-desktop.png" });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("every top-menu item can be reached on a phone, none under the login button", async () => {
    const { page, problems } = await open("/", PHONE);
    const nav = page.getByRole("navigation", { name: "主导航" });
    const items = nav.locator(":scope > ul > li > a");
    const count = await items.count();
    expect(count).toBeGreaterThan(3);
    const login = await page.getByRole("button", { name: "登录/注册" }).boundingBox();
    for (let n = 0; n < count; n++) {
      const item = items.nth(n);
      await item.scrollIntoViewIfNeeded();
      const box = (await item.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width + 1);
      // Not under the login button, and the item itself is what a tap at its centre reaches.
      const overlaps = box.y < login!.y + login!.height && login!.y < box.y + box.height && box.x < login!.x + login!.width && login!.x < box.x + box.width;
      expect(overlaps, await item.innerText()).toBe(false);
      const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest("a")?.textContent ?? null, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
      expect(hit).toBe(await item.innerText());
    }
    // The last one opens its page.
    const last = items.nth(count - 1);
    const href = await last.getAttribute("href");
    await last.click();
    await page.waitForURL(`${server.url}${href}`);
    await page.screenshot({ path: "/tmp/lists-nav-phone.png" });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("page numbers and the jump box", () => {
  it("a category's pages are links (and a GET form) that work before any script runs", async () => {
    const html = await (await fetch(`${server.url}/sort/chuanshao?page=3`)).text();
    expect(html).toContain('href="/sort/chuanshao?page=4"');
    expect(html).toContain('href="/sort/chuanshao?page=2"');
    const form = /<form[^>]*>/.exec(html.slice(html.indexOf('aria-label="分页"')))![0];
    expect(form).toContain('method="get"');
    expect(form).toContain('action="/sort/chuanshao"');
    expect(html).toMatch(/第 <!-- -->3<!-- --> \/ <!-- -->\d+<!-- --> 页|第 3 \/ \d+ 页/);
    // The jump form's address is a page.
    const jumped = await fetch(`${server.url}/sort/chuanshao?page=5`);
    expect(jumped.status).toBe(200);
  });

  it("a category: numbers, …, 尾页 and 跳转到 … 页 确定, at 1366 and at 390", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, problems } = await open("/sort/chuanshao", viewport);
      const pager = page.getByRole("navigation", { name: "分页" });
      const status = await pager.getByText(/第 1 \/ \d+ 页/).innerText();
      const last = Number(/\/ (\d+) 页/.exec(status)![1]);
      expect(last).toBeGreaterThanOrEqual(8);
      await expect(pager.locator("[aria-current=page]").innerText()).resolves.toBe("1");
      await expect(pager.getByText("…").count()).resolves.toBe(1);
      await pager.getByRole("link", { name: "第 3 页" }).click();
      await page.waitForURL(/page=3$/);
      await pager.getByText(`第 3 / ${last} 页`).waitFor();
      await pager.getByRole("link", { name: `第 ${last} 页` }).waitFor();
      if (viewport === DESKTOP) {
        await pager.getByRole("link", { name: "尾页" }).click();
        await page.waitForURL(new RegExp(`page=${last}$`));
        await pager.getByRole("link", { name: "首页" }).click();
        await page.waitForURL(`${server.url}/sort/chuanshao`);
      }
      await pager.getByLabel("跳转到第几页").fill(String(last - 1));
      await pager.getByRole("button", { name: "确定" }).click();
      await page.waitForURL(new RegExp(`page=${last - 1}$`));
      await pager.getByText(`第 ${last - 1} / ${last} 页`).waitFor();
      // Past the end: the browser's own check says so (with or without script), nothing is sent.
      await pager.getByLabel("跳转到第几页").fill("999");
      await pager.getByLabel("跳转到第几页").press("Enter");
      await expect(pager.getByLabel("跳转到第几页").evaluate((el) => (el as HTMLInputElement).validity.rangeOverflow)).resolves.toBe(true);
      expect(page.url()).toMatch(new RegExp(`page=${last - 1}$`));
      if (viewport === PHONE) await page.screenshot({ path: "/tmp/lists-pager-phone.png", fullPage: true });
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it("search results: numbers and the jump box, at 390 and at 1366", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { page, problems } = await open("/", viewport);
      await page.getByRole("search").getByLabel("搜索关键词").fill(KEYWORD);
      await page.getByRole("search").getByRole("button", { name: "搜索" }).click();
      await page.getByText(`“${KEYWORD}” 找到`).waitFor();
      const pager = page.getByRole("navigation", { name: "搜索结果分页" });
      const last = Number(/\/ (\d+) 页/.exec(await pager.getByText(/第 1 \/ \d+ 页/).innerText())![1]);
      expect(last).toBeGreaterThanOrEqual(13);
      await pager.getByRole("button", { name: "第 3 页" }).click();
      await pager.getByText(`第 3 / ${last} 页`).waitFor();
      await pager.getByLabel("跳转到第几页").fill(String(last));
      await pager.getByRole("button", { name: "确定" }).click();
      await pager.getByText(`第 ${last} / ${last} 页`).waitFor();
      await pager.getByRole("button", { name: "上一页" }).click();
      await pager.getByText(`第 ${last - 1} / ${last} 页`).waitFor();
      if (viewport === PHONE) {
        await pager.getByRole("button", { name: "第 1 页" }).click();
        await pager.getByText(`第 1 / ${last} 页`).waitFor();
        await page.getByText(`“${KEYWORD}” 找到`).scrollIntoViewIfNeeded();
        await page.screenshot({ path: "/tmp/lists-search-phone.png" });
      }
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});

describe("播放全部", () => {
  it("puts a category page's items in the playlist and plays the first; search adds its page", async () => {
    const { page, problems } = await open("/sort/chuanshao", DESKTOP);
    const names = await page.locator("main ol li a").allInnerTexts();
    expect(names).toHaveLength(10);
    await page.getByRole("button", { name: "播放全部" }).first().click();
    await expect.poll(async () => (await playlist(page)).names).toEqual(names);
    expect((await playlist(page)).index).toBe(0);

    await page.goto(`${server.url}/`);
    await hydrated(page);
    await page.getByRole("search").getByLabel("搜索关键词").fill(KEYWORD);
    await page.getByRole("search").getByRole("button", { name: "搜索" }).click();
    await page.getByText(`“${KEYWORD}” 找到`).waitFor();
    const hits = page.locator("[aria-live=polite] ol li");
    const hitNames = await hits.locator("a").allInnerTexts();
    await page.locator("[aria-live=polite]").getByRole("button", { name: "全部加入播放列表" }).click();
    await expect.poll(async () => (await playlist(page)).names).toEqual([...names, ...hitNames.filter((n) => !names.includes(n))]);
    expect((await playlist(page)).index).toBe(0); // still the first
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("suite page", () => {
  it("shows 该DJ的更多作品 and 相关推荐 with links, at 1366 and 390", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, problems } = await open(`/sutie/${longId}.html`, viewport);
      const more = page.getByRole("region", { name: "该DJ的更多作品" });
      await more.getByRole("heading").getByText(ARTIST).waitFor();
      const moreLinks = more.getByRole("link");
      await expect.poll(() => moreLinks.count()).toBe(8);
      const moreHrefs = await moreLinks.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      expect(moreHrefs.every((h) => /^\/sutie\/\d+\.html$/.test(h ?? ""))).toBe(true);
      expect(moreHrefs).not.toContain(`/sutie/${longId}.html`);
      const related = page.getByRole("region", { name: "相关推荐" });
      await expect.poll(() => related.getByRole("link").count()).toBeGreaterThan(0);
      const relatedHrefs = await related.getByRole("link").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      expect(relatedHrefs.filter((h) => moreHrefs.includes(h))).toEqual([]);
      await more.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/lists-suite-${viewport.width}.png` });
      // A link opens that suite.
      const first = moreLinks.first();
      const title = await first.innerText();
      await first.click();
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toContain(title);
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
