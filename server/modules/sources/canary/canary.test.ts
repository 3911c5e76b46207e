/**
 * Source canaries (issue 22, ADR 0049) on the real app, both engines: djuu's real adapter on a
 * fixture site that works, goes down (5xx, hanging, connections reset), blocks (403, a captcha
 * page), drifts (the markup the parser reads is gone; media that is a page) and recovers; 172Mix
 * on a closed port. Each run through the back office's 立即检测 route.
 */
import { and, asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../../db/schema/index.js";
import { createTestAdmin } from "../../../testing/admins.js";
import { startFixtureSite, type FixtureSite } from "../../../testing/fixture-site.js";
import { captureLog } from "../../../testing/log-capture.js";
import { createTestApp, type TestApp } from "../../../testing/test-app.js";
import { testEngines } from "../../../testing/test-db.js";
import { applyExternalSources } from "../builtin-switches.js";
import { createSourceAdapters } from "../registry.js";
import { CAPTCHA_PAGE, serveCanarySite, type SiteMode } from "./canary.fixtures.js";
import type { DriftAnswer } from "./checks.js";

const TIMEOUT_MS = 400;

interface Canary {
  at: string;
  state: string;
  since: string;
  lastOkAt: string | null;
  failingStep: string | null;
  checks: { name: string; ok: boolean; state: string; detail: string }[];
}

describe.each(testEngines())("source canaries on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let site: FixtureSite;
  let setMode: (mode: SiteMode) => void;
  let external: ReturnType<typeof createSourceAdapters>;
  let headers: Record<string, string>;
  const drifts: { source: string; step: string; answer: DriftAnswer }[] = [];
  const log = captureLog("warn");

  const run = async (code: string) => {
    const res = await app.inject({ method: "POST", url: `/api/pandaadmin/sources/${code}/canary`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.canary as Canary;
  };
  const runIn = async (mode: SiteMode) => {
    setMode(mode);
    return run("djuu");
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    setMode = serveCanarySite(site).mode;
    const closed = await startFixtureSite();
    const closedUrl = closed.url;
    await closed.close();
    const onSite = { allowAddresses: [site.host], extraMediaHosts: [site.host], timeoutMs: TIMEOUT_MS, minIntervalMs: 0 };
    external = createSourceAdapters({
      userAgent: "DJSearchBot/1.0 (+http://test/about)",
      logger: captureLog().logger,
      overrides: {
        djuu: { ...onSite, baseUrl: site.url, apiBaseUrl: `${site.url}/app/v1` },
        "172minx": { baseUrl: closedUrl, allowAddresses: ["127.0.0.1"], timeoutMs: TIMEOUT_MS, minIntervalMs: 0 },
      },
    });
    testApp = await createTestApp(engine, {
      sourceAdapters: external.sources.filter((s) => s.code !== "vvvdj"),
      logger: log.logger,
      canary: { onDrift: (source, step, answer) => void drifts.push({ source, step, answer }), stepTimeoutMs: 4 * TIMEOUT_MS },
    });
    app = testApp.app;
    await applyExternalSources(app.services, ["djuu", "172minx"], { info: () => undefined });
    headers = (await createTestAdmin(testApp.database.db, { role: "super" })).headers;
  });

  afterAll(async () => {
    await testApp?.close();
    external?.close();
    await site?.close();
  });

  it("a working site: every check passes, the media's first 16 bytes are an m4a's", async () => {
    const canary = await runIn("ok");
    expect(canary).toMatchObject({ state: "ok", failingStep: null });
    expect(canary.checks.map((c) => [c.name, c.state])).toEqual([
      ["search-ascii", "ok"],
      ["search-chinese", "ok"],
      ["list-1", "ok"],
      ["list-2", "ok"],
      ["play", "ok"],
      ["media", "ok"],
    ]);
    expect(canary.checks.at(-1)!.detail).toBe("m4a");
    expect(canary.lastOkAt).toBe(canary.at);
    const media = site.hits.filter((h) => h.path.startsWith("/media/"));
    expect(media.at(-1)!.headers.range).toBe("bytes=0-15");
    // The first list of djuu's collection plan, pages 1 and 2.
    expect(site.hits.some((h) => h.path === "/djlist/4_1.html")).toBe(true);
    expect(site.hits.some((h) => h.path === "/djlist/4_2.html")).toBe(true);
  });

  it.each([
    ["5xx", "outage"],
    ["timeout", "outage"],
    ["reset", "outage"],
    ["403", "blocked"],
    ["captcha", "blocked"],
    ["drift", "drift"],
  ] as const)("a site that answers %s is %s, at the first search", async (mode, state) => {
    const canary = await runIn(mode);
    expect(canary.state).toBe(state);
    expect(canary.failingStep).toBe("search-ascii");
    expect(canary.checks[0]).toMatchObject({ name: "search-ascii", ok: false, state });
    // Down or refusing: nothing more is asked. Drift goes on to show what still works.
    if (state !== "drift") expect(canary.checks).toHaveLength(1);
    else expect(canary.checks.length).toBeGreaterThan(1);
    if (mode === "captcha") expect(canary.checks[0]!.detail).toMatch(/^源站返回拒绝或验证页面（200 http:\/\/127\.0\.0\.1/u);
  });

  it("a drift hands the answer that broke the parse to onDrift", () => {
    const kept = drifts.filter((d) => d.source === "djuu" && d.step === "search-ascii").at(-1);
    expect(kept).toBeDefined();
    expect(kept!.answer.status).toBe(200);
    expect(kept!.answer.url).toContain(site.url);
    expect(kept!.answer.body.toString("utf8")).toContain("songs-grid");
    // Blocked and outage answers are not drift: the captcha page was never handed over.
    expect(drifts.some((d) => d.answer.body.toString("utf8") === CAPTCHA_PAGE)).toBe(false);
  });

  it("keeps the drifted answer among the source's recorded answers, with the search it answered (ADR 0051)", async () => {
    const recorded = await app.services.recorded.list("djuu");
    const kept = recorded.find((r) => r.reason.startsWith("巡检 search-ascii"));
    expect(kept).toMatchObject({ status: 200, call: { method: "search", args: ["remix", 1, "music"] } });
    expect(kept!.url).toContain(site.url);
    // Replayed through the built-in parser, the kept page shows the drift again: nothing extracted.
    const replay = await app.inject({ method: "POST", url: "/api/pandaadmin/recorded/replay?source=djuu", headers });
    expect(replay.statusCode).toBe(200);
    const row = (replay.json() as { data: { rows: { answer: { id: number }; new: { count: number; error: string | null } }[] } }).data.rows.find((r) => r.answer.id === kept!.id);
    expect(row?.new.count ?? -1).toBe(0);
  });

  it("media that is not audio is drift at the media step, after a good play resolution", async () => {
    const canary = await runIn("media-drift");
    expect(canary).toMatchObject({ state: "drift", failingStep: "media" });
    expect(canary.checks.find((c) => c.name === "play")).toMatchObject({ ok: true });
  });

  it("recovers: ok again, since the recovery; each change in the audit trail and the log at warn", async () => {
    const before = await run("djuu");
    expect(before.state).toBe("drift");
    const again = await run("djuu");
    expect(again.since).toBe(before.since);
    const recovered = await runIn("ok");
    expect(recovered.state).toBe("ok");
    expect(recovered.since).toBe(recovered.at);
    const rows = await testApp.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "source.canary"), eq(auditLog.targetId, "djuu")))
      .orderBy(asc(auditLog.id));
    const states = rows.map((r) => (r.detail as { after: { state: string } }).after.state);
    // Repeated states are not changes: timeout and reset follow 5xx (all outage), captcha follows 403.
    expect(states).toEqual(["ok", "outage", "blocked", "drift", "ok"]);
    expect(rows.at(-1)!.adminId).not.toBeNull();
    const warned = log.lines.filter((l) => l.msg === "source canary state changed" && l.source === "djuu");
    expect(warned.map((l) => l.to)).toEqual(states);
    expect(warned.every((l) => l.level === 40)).toBe(true);
  });

  it("a closed port is an outage", async () => {
    const canary = await run("172minx");
    expect(canary).toMatchObject({ state: "outage", failingStep: "search-ascii" });
    expect(canary.checks[0]!.detail).toMatch(/ECONNREFUSED/u);
  });

  it("the health API shows each source's canary; /metrics has its state", async () => {
    const res = await app.inject({ url: "/api/pandaadmin/sources/health", headers });
    expect(res.statusCode).toBe(200);
    const sources = res.json().data.sources as { code: string; canary: Canary | null }[];
    const djuu = sources.find((s) => s.code === "djuu")!.canary!;
    expect(Object.keys(djuu).toSorted()).toEqual(["at", "checks", "failingStep", "lastOkAt", "since", "state"]);
    expect(djuu.state).toBe("ok");
    for (const check of djuu.checks) expect(Object.keys(check).toSorted()).toEqual(["detail", "name", "ok", "state"]);
    expect(sources.find((s) => s.code === "172minx")!.canary!.state).toBe("outage");
    const metrics = (await app.inject({ url: "/metrics" })).body;
    expect(metrics).toMatch(/dj_source_canary_state\{source="djuu",state="ok"\} 1/u);
    expect(metrics).toMatch(/dj_source_canary_state\{source="djuu",state="drift"\} 0/u);
    expect(metrics).toMatch(/dj_source_canary_state\{source="172minx",state="outage"\} 1/u);
    // A source switched off leaves the metric (its row stays for when it comes back).
    const off = await app.inject({ method: "PATCH", url: "/api/pandaadmin/sources/172minx", headers, payload: { enabled: false } });
    expect(off.statusCode).toBe(200);
    expect((await app.inject({ url: "/metrics" })).body).not.toContain('source="172minx"');
    await app.inject({ method: "PATCH", url: "/api/pandaadmin/sources/172minx", headers, payload: { enabled: true } });
  });

  it("since when survives a restart: another app on the same database shows the kept result", async () => {
    const first = (await app.inject({ url: "/api/pandaadmin/sources/health", headers })).json().data.sources as { code: string; canary: Canary }[];
    const second = await createTestApp(engine, { database: testApp.database, sourceAdapters: external.sources.filter((s) => s.code !== "vvvdj") });
    try {
      const res = await second.app.inject({ url: "/api/pandaadmin/sources/health", headers });
      const kept = res.json().data.sources as { code: string; canary: Canary }[];
      expect(kept.find((s) => s.code === "172minx")!.canary).toEqual(first.find((s) => s.code === "172minx")!.canary);
    } finally {
      await second.close();
    }
  });

  it("an unknown source is a 404 in Chinese, a malformed code a 400; only admins may run one", async () => {
    const unknown = await app.inject({ method: "POST", url: "/api/pandaadmin/sources/nosuch/canary", headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe("未知或未启用的来源：nosuch");
    const bad = await app.inject({ method: "POST", url: `/api/pandaadmin/sources/${encodeURIComponent("<x>")}/canary`, headers });
    expect(bad.statusCode).toBe(400);
    const anonymous = await app.inject({ method: "POST", url: "/api/pandaadmin/sources/djuu/canary" });
    expect([401, 403]).toContain(anonymous.statusCode);
  });
});
