/**
 * Source canaries on the sources screen (issue 22, ADR 0049): four sources, one in each state —
 * DJUU working (a fixture site), 172Mix on a closed port (站点故障), 清风DJ answering a captcha page
 * (被拦截), and the generic source 镜像DJ on a site whose markup changed (页面改版). Each is
 * checked with its 立即检测 button; the dashboard shows the same. Screenshots for a person to look at.
 */
import { mkdirSync, readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPTCHA_PAGE, serveCanarySite } from "../server/modules/sources/canary/canary.fixtures";
import { applyExternalSources } from "../server/modules/sources/builtin-switches";
import { createSourceAdapters } from "../server/modules/sources/registry";
import { createTestAdmin } from "../server/testing/admins";
import { html, startFixtureSite, type FixtureSite } from "../server/testing/fixture-site";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "test-results/screenshots/canary";
const DJUU_CONFIG = JSON.parse(readFileSync(new URL("../server/modules/sources/adapters/djuu.generic.json", import.meta.url), "utf8")) as Record<string, unknown>;
const EXPECTED = [
  ["djuu", "ok", "正常"],
  ["172minx", "outage", "站点故障"],
  ["vvvdj", "blocked", "被拦截"],
  ["mirror", "drift", "页面改版"],
] as const;

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let closeSources = () => {};
let adminToken: string;
const sites: FixtureSite[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const working = await startFixtureSite();
  serveCanarySite(working).mode("ok");
  const captcha = await startFixtureSite();
  captcha.route(/^\//u, html(CAPTCHA_PAGE));
  const changed = await startFixtureSite();
  serveCanarySite(changed).mode("drift");
  sites.push(working, captcha, changed);
  const closed = await startFixtureSite();
  const closedUrl = closed.url;
  await closed.close();
  const built = createSourceAdapters({
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: { warn: () => {} },
    overrides: {
      djuu: { baseUrl: working.url, apiBaseUrl: `${working.url}/app/v1`, allowAddresses: [working.host], extraMediaHosts: [working.host], minIntervalMs: 0 },
      "172minx": { baseUrl: closedUrl, allowAddresses: ["127.0.0.1"], minIntervalMs: 0 },
      vvvdj: { baseUrl: captcha.url, allowAddresses: [captcha.host], minIntervalMs: 0 },
    },
  });
  closeSources = built.close;
  server = await startWebServer({ suites: 4, singles: 4 }, { sourceAdapters: built.sources, sourceNetwork: { allowAddresses: [changed.host] } });
  await applyExternalSources(server.app.services, ["djuu", "172minx", "vvvdj"], { info: () => {} });
  const admin = await createTestAdmin(server.app.deps.database.db, { role: "super", username: "boss" });
  adminToken = admin.token;
  const config = { ...DJUU_CONFIG, code: "mirror", name: "镜像DJ", baseUrl: changed.url, bases: { api: `${changed.url}/app/v1` }, hosts: [changed.host], minIntervalMs: 0 };
  const put = await server.app.inject({ method: "PUT", url: "/api/pandaadmin/sources/mirror", headers: admin.headers, payload: config });
  expect(put.statusCode, put.body).toBe(201);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  closeSources();
  for (const site of sites) await site.close();
});

describe("source canaries in the back office", () => {
  it("the sources screen runs each source's canary and shows one source in each state", async () => {
    const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, locale: "zh-CN" });
    await context.addInitScript((value) => localStorage.setItem("admin_token", value), adminToken);
    const page = await context.newPage();
    const problems = await watchProblems(page);
    await page.goto(`${server.url}/panda/sources`);
    await hydrated(page);
    const table = page.getByTestId("source-table");
    await table.locator('[data-canary-run="mirror"]').waitFor();
    // Before the first run: nothing to show yet.
    expect(await table.locator("tr", { hasText: "镜像DJ" }).textContent()).toContain("尚未巡检");
    await page.screenshot({ path: `${SHOTS}/sources-before.png`, fullPage: true });

    for (const [code, state, text] of EXPECTED) {
      await table.locator(`[data-canary-run="${code}"]`).click();
      const cell = table.locator(`[data-source-canary="${code}"]`);
      await expect.poll(() => cell.getAttribute("data-canary-state"), { timeout: 30_000 }).toBe(state);
      const shown = await cell.textContent();
      expect(shown).toContain(text);
      expect(shown).toMatch(/自 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/u);
      if (state === "ok") expect(shown).not.toContain("失败步骤");
      else expect(shown).toContain("失败步骤：英文搜索");
      expect(shown).toContain(state === "ok" ? "上次正常 20" : "上次正常 从未");
    }
    // The toasts of the four runs gone: the table alone.
    await expect.poll(() => page.locator(".ant-message-notice").count(), { timeout: 10_000 }).toBe(0);
    expect(await table.locator('[data-source-canary="vvvdj"]').textContent()).toContain("源站返回拒绝或验证页面（200");
    await page.screenshot({ path: `${SHOTS}/sources-four-states.png`, fullPage: true });

    // Every check of a run, in the tag's tooltip.
    await table.locator('[data-source-canary="djuu"] .ant-tag').hover();
    const tip = page.locator(".ant-tooltip", { hasText: "读取音频开头" });
    await tip.waitFor();
    expect(await tip.textContent()).toContain("读取音频开头：通过（m4a）");
    await page.screenshot({ path: `${SHOTS}/sources-ok-checks.png` });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the dashboard shows the same states; the health API and /metrics agree", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: "zh-CN" });
    await context.addInitScript((value) => localStorage.setItem("admin_token", value), adminToken);
    const page = await context.newPage();
    const problems = await watchProblems(page);
    await page.goto(`${server.url}/panda`);
    await hydrated(page);
    const panel = page.getByTestId("dashboard-sources");
    for (const [code, state, text] of EXPECTED) {
      const cell = panel.locator(`[data-source-canary="${code}"]`);
      await expect.poll(() => cell.getAttribute("data-canary-state")).toBe(state);
      await expect.poll(() => cell.textContent()).toContain(text);
    }
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `${SHOTS}/dashboard-sources.png` });
    const metrics = (await server.app.inject({ url: "/metrics" })).body;
    for (const [code, state] of EXPECTED) expect(metrics).toContain(`dj_source_canary_state{source="${code}",state="${state}"} 1`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
