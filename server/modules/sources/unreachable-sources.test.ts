/**
 * The three built-in sites switched on (the default, issue 21) on a machine that cannot reach
 * them: the real adapters, with DJUU's address refusing connections (a fixture site closed), 172Mix's
 * name not resolving (ENOTFOUND, as this machine's DNS answers) and 清风DJ's lookup never answering.
 * The first search answers within the sources' timeout naming all three in `errors`; once their
 * breakers are open, searches answer at local speed without asking the network.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAdmin } from "../../testing/admins.js";
import { captureLog } from "../../testing/log-capture.js";
import { startFixtureSite } from "../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { applyExternalSources } from "./builtin-switches.js";
import type { LookupFunction } from "./fetch/index.js";
import { HEALTH_DEFAULTS } from "./health.js";
import { createSourceAdapters } from "./registry.js";

const TIMEOUT_MS = 800;
/** Time a search may take beyond the sources' timeout (a busy test machine, the local search). */
const MARGIN_MS = 1_200;

describe.each(testEngines())("built-in sources that cannot be reached, on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let external: ReturnType<typeof createSourceAdapters>;
  let headers: Record<string, string>;
  const lookups = { notFound: 0, hanging: 0 };

  const notFound: LookupFunction = (hostname, _options, callback) => {
    lookups.notFound += 1;
    const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
    setImmediate(() => callback(err, []));
  };
  const hanging: LookupFunction = () => {
    lookups.hanging += 1;
  };

  const search = async (keyword: string) => {
    const started = performance.now();
    const res = await app.inject({ url: "/api/forntend/indexsearch", query: { keyword } });
    const ms = performance.now() - started;
    expect(res.statusCode).toBe(200);
    const errors = (res.json().data.errors as { source: string; msg: string }[]).toSorted((a, b) => a.source.localeCompare(b.source));
    return { ms, errors };
  };

  beforeAll(async () => {
    // A port that answered once and is closed now: connections to it are refused.
    const closed = await startFixtureSite();
    const closedUrl = closed.url;
    await closed.close();
    external = createSourceAdapters({
      userAgent: "DJSearchBot/1.0 (+http://test/about)",
      logger: captureLog().logger,
      overrides: {
        djuu: { baseUrl: closedUrl, apiBaseUrl: `${closedUrl}/app/v1`, allowAddresses: ["127.0.0.1"], timeoutMs: TIMEOUT_MS, minIntervalMs: 0 },
        "172minx": { lookup: notFound, timeoutMs: TIMEOUT_MS, minIntervalMs: 0 },
        vvvdj: { lookup: hanging, timeoutMs: TIMEOUT_MS, minIntervalMs: 0 },
      },
    });
    // As main.ts: every built-in handed over, EXTERNAL_SOURCES's default (all) applied to the switches.
    testApp = await createTestApp(engine, { sourceAdapters: external.sources });
    app = testApp.app;
    await applyExternalSources(app.services, ["djuu", "172minx", "vvvdj"], { info: () => undefined });
    headers = (await createTestAdmin(testApp.database.db, { role: "super" })).headers;
  });

  afterAll(async () => {
    await testApp?.close();
    external?.close();
  });

  it("the first search answers within the timeout, naming every unreachable source", async () => {
    expect(app.services.sourceDirectory.list().map((e) => e.code)).toEqual(["djuu", "172minx", "vvvdj"]);
    const first = await search("remix");
    expect(first.errors).toEqual([
      { source: "172minx", msg: "搜索失败" },
      { source: "djuu", msg: "搜索失败" },
      { source: "vvvdj", msg: "搜索超时" },
    ]);
    expect(first.ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    expect(lookups.notFound).toBeGreaterThan(0);
    expect(lookups.hanging).toBeGreaterThan(0);
  });

  it("once the breakers are open, searches answer at local speed without asking the network", async () => {
    // Each search so far was a failure of each source; the breaker opens at the threshold.
    for (let i = 2; i <= HEALTH_DEFAULTS.failureThreshold; i++) {
      const { ms, errors } = await search(`remix ${i}`);
      expect(errors.map((e) => e.source)).toEqual(["172minx", "djuu", "vvvdj"]);
      expect(ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    }
    expect(app.services.sourceHealth.list().map((h) => [h.code, h.state])).toEqual([
      ["djuu", "open"],
      ["172minx", "open"],
      ["vvvdj", "open"],
    ]);
    const asked = { ...lookups };
    for (const keyword of ["house", "club", "disco"]) {
      const { ms, errors } = await search(keyword);
      expect(errors).toEqual([
        { source: "172minx", msg: "源站暂时不可用" },
        { source: "djuu", msg: "源站暂时不可用" },
        { source: "vvvdj", msg: "源站暂时不可用" },
      ]);
      // Below a source's timeout: nobody waited for the network (a search that did takes all of it).
      expect(ms).toBeLessThan(TIMEOUT_MS);
    }
    expect(lookups).toEqual(asked);
  });

  it("the sources screen's calls say each source is on, in use, its breaker open until when, and why", async () => {
    const list = (await app.inject({ url: "/api/pandaadmin/sources", headers })).json().data.sources as { code: string; enabled: boolean; inUse: boolean }[];
    for (const code of ["djuu", "172minx", "vvvdj"]) expect(list.find((s) => s.code === code)).toMatchObject({ enabled: true, inUse: true });
    const health = (await app.inject({ url: "/api/pandaadmin/sources/health", headers })).json().data.sources as {
      code: string;
      state: string;
      retryAt: string | null;
      lastError: { kind: string; message: string } | null;
    }[];
    const byCode = new Map(health.map((h) => [h.code, h]));
    for (const h of health) {
      expect(h.state).toBe("open");
      expect(Date.parse(h.retryAt!)).toBeGreaterThan(Date.now());
    }
    expect(byCode.get("djuu")!.lastError).toMatchObject({ kind: "network" });
    expect(byCode.get("172minx")!.lastError).toMatchObject({ kind: "network", message: expect.stringContaining("ENOTFOUND") });
    expect(byCode.get("vvvdj")!.lastError).toMatchObject({ kind: "timeout" });
  });
});
