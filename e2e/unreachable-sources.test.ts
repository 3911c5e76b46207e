/**
 * The three built-in sites on (the default, issue 21) where they cannot be reached, as on this
 * machine: no name resolves. The first search names them in its notice beside the catalogue's
 * hits; once their breakers are open the sources screen says so for each, until when, and why.
 */
import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyExternalSources } from "../server/modules/sources/builtin-switches";
import type { LookupFunction } from "../server/modules/sources/fetch/index";
import { HEALTH_DEFAULTS } from "../server/modules/sources/health";
import { createSourceAdapters } from "../server/modules/sources/registry";
import { createTestAdmin } from "../server/testing/admins";
import { hydrated, launchBrowser } from "./browser";
import { startWebServer, watchProblems } from "./web-server";

const SHOTS = "/tmp/shots-unreachable";
const BUILTINS = ["djuu", "172minx", "vvvdj"];

let server: Awaited<ReturnType<typeof startWebServer>>;
let browser: Browser;
let closeSources = () => {};
let adminToken: string;

// What this machine's DNS answers for every outside name.
const notFound: LookupFunction = (hostname, _options, callback) =>
  setImmediate(() => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const built = createSourceAdapters({
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: { warn: () => {} },
    overrides: Object.fromEntries(BUILTINS.map((code) => [code, { lookup: notFound, minIntervalMs: 0 }])),
  });
  closeSources = built.close;
  server = await startWebServer({ suites: 24, singles: 8 }, { sourceAdapters: built.sources });
  // As main.ts with EXTERNAL_SOURCES unset: every built-in switched on.
  await applyExternalSources(server.app.services, BUILTINS, { info: () => {} });
  adminToken = (await createTestAdmin(server.app.deps.database.db, { role: "super", username: "boss" })).token;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  closeSources();
});

describe("built-in sources that cannot be reached", () => {
  it("the first search shows the catalogue's hits and names the three sites in its notice", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "zh-CN" });
    const problems = await watchProblems(page);
    await page.goto(`${server.url}/`);
    await hydrated(page);
    const box = page.getByRole("search");
    await box.getByLabel("搜索关键词").fill("DJ");
    const started = Date.now();
    await box.getByRole("button", { name: "搜索" }).click();
    await page.getByText("“DJ” 找到").waitFor();
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(page.locator("[data-source-notice]").textContent()).resolves.toBe("DJUU、172Mix、清风DJ 暂时无法访问，已显示其他来源的结果");
    expect(await page.locator("[aria-live=polite] ol li").count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/search-notice.png` });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("the sources screen shows each site on and in use, its breaker open until when, and the last failure", async () => {
    for (let i = 2; i <= HEALTH_DEFAULTS.failureThreshold; i++) {
      expect((await server.app.inject({ url: "/api/forntend/indexsearch", query: { keyword: `DJ ${i}` } })).statusCode).toBe(200);
    }
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: "zh-CN" });
    await context.addInitScript((value) => localStorage.setItem("admin_token", value), adminToken);
    const page = await context.newPage();
    const problems = await watchProblems(page);
    await page.goto(`${server.url}/panda/sources`);
    await hydrated(page);
    const table = page.getByTestId("source-table");
    for (const code of BUILTINS) {
      await expect.poll(() => table.locator(`[data-source-use="${code}"]`).textContent()).toBe("使用中");
      const health = table.locator(`[data-source-health="${code}"]`);
      await health.getByText("已熔断").waitFor();
      expect(await health.textContent()).toMatch(/暂停搜索至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}，之后再试探/u);
      expect(await health.textContent()).toContain("最近错误：无法连接（");
      expect(await table.locator("tr", { hasText: code }).getByRole("switch").getAttribute("aria-checked")).toBe("true");
    }
    await page.screenshot({ path: `${SHOTS}/sources-open-breakers.png`, fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
