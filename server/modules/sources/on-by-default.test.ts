/**
 * EXTERNAL_SOURCES seeds the built-in sites' switches (issue 21, ADR 0047): on a database's first
 * start and whenever its value changes; in between the back office's 启用 switch is the truth.
 * What the sources screen shows (enabled), what search and collect use (in use) and what 开始采集
 * answers never disagree.
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSettings, sourceSites } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { captureLog } from "../../testing/log-capture.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { applyExternalSources } from "./builtin-switches.js";
import type { LookupFunction } from "./fetch/index.js";
import { createSourceAdapters } from "./registry.js";

const BUILTINS = ["djuu", "172minx", "vvvdj"];

describe.each(testEngines())("built-in sources switched by EXTERNAL_SOURCES, then by the back office, on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let external: ReturnType<typeof createSourceAdapters>;
  let headers: Record<string, string>;

  // No test reaches the real sites: every name fails to resolve.
  const notFound: LookupFunction = (hostname, _options, callback) =>
    setImmediate(() => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []));
  /** What main.ts does at every start with this EXTERNAL_SOURCES. */
  const start = (codes: string[]) => applyExternalSources(app.services, codes, { info: () => undefined });
  const sources = async () => {
    const res = await app.inject({ url: "/api/pandaadmin/sources", headers });
    expect(res.statusCode).toBe(200);
    return (res.json().data.sources as { code: string; enabled: boolean; inUse: boolean }[]).filter((s) => BUILTINS.includes(s.code));
  };
  /** Switched on ⇔ in use, for each built-in; answers the codes switched on. */
  const switchedOn = async () => {
    const list = await sources();
    for (const s of list) expect({ code: s.code, inUse: s.inUse }).toEqual({ code: s.code, inUse: s.enabled });
    expect(app.services.sourceDirectory.list().map((e) => e.code)).toEqual(list.filter((s) => s.enabled).map((s) => s.code));
    return list.filter((s) => s.enabled).map((s) => s.code);
  };
  const collectAll = () => app.inject({ method: "POST", url: "/api/pandaadmin/collect/start", headers, payload: {} });
  const patch = (code: string, body: object) => app.inject({ method: "PATCH", url: `/api/pandaadmin/sources/${code}`, headers, payload: body });

  beforeAll(async () => {
    external = createSourceAdapters({
      userAgent: "DJSearchBot/1.0 (+http://test/about)",
      logger: captureLog().logger,
      overrides: Object.fromEntries(BUILTINS.map((code) => [code, { lookup: notFound }])),
    });
    testApp = await createTestApp(engine, { sourceAdapters: external.sources });
    app = testApp.app;
    headers = (await createTestAdmin(testApp.database.db, { role: "super" })).headers;
  });

  afterAll(async () => {
    await testApp?.close();
    external?.close();
  });

  it("EXTERNAL_SOURCES=none on the first start switches every built-in off; 开始采集 says none is on", async () => {
    expect(await start([])).toMatchObject({ applied: true, switchedOff: BUILTINS, switchedOn: [] });
    expect(await switchedOn()).toEqual([]);
    const res = await collectAll();
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("没有启用的外部来源");
  });

  it("an admin's switch is the truth across restarts with the same EXTERNAL_SOURCES; collect takes the source at once", async () => {
    expect((await patch("djuu", { enabled: true })).statusCode).toBe(200);
    expect(await switchedOn()).toEqual(["djuu"]);
    const collected = await collectAll();
    expect(collected.statusCode).toBe(200);
    expect((collected.json().data.jobs as { job: { source: string } }[]).map((j) => j.job.source)).toEqual(["djuu"]);

    // A restart with the same value leaves the switches as the admin set them.
    expect(await start([])).toMatchObject({ applied: false, switchedOn: [], switchedOff: [] });
    expect(await switchedOn()).toEqual(["djuu"]);
  });

  it("a changed EXTERNAL_SOURCES (back to the default, all) is applied once; 开始采集 then queues every site", async () => {
    expect(await start(BUILTINS)).toMatchObject({ applied: true, switchedOn: ["172minx", "vvvdj"] });
    expect(await switchedOn()).toEqual(BUILTINS);
    const res = await collectAll();
    expect(res.statusCode).toBe(200);
    const jobs = res.json().data.jobs as { created: boolean; job: { source: string } }[];
    expect(jobs.map((j) => [j.job.source, j.created])).toEqual([
      ["djuu", false],
      ["172minx", true],
      ["vvvdj", true],
    ]);
    const [kept] = await testApp.database.db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, "external_sources_applied"));
    expect(kept?.value).toEqual(BUILTINS);

    // Switched off in the back office: out of search and collect at once, and it stays off.
    expect((await patch("vvvdj", { enabled: false })).statusCode).toBe(200);
    expect(await switchedOn()).toEqual(["djuu", "172minx"]);
    await start(BUILTINS);
    expect(await switchedOn()).toEqual(["djuu", "172minx"]);
  });

  it("a built-in without a row gets one, switched as EXTERNAL_SOURCES says", async () => {
    await app.services.writes.deleteSourceSite("vvvdj");
    expect(await start(["djuu"])).toMatchObject({ applied: true, created: ["vvvdj"], switchedOff: ["172minx"] });
    const [row] = await testApp.database.db.select().from(sourceSites).where(eq(sourceSites.code, "vvvdj"));
    expect(row).toMatchObject({ name: "清风DJ", enabled: false, collectIntervalMinutes: 360 });
    expect(await switchedOn()).toEqual(["djuu"]);
  });
});
