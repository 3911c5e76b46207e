import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuild } from "../../e2e/web-server.js";
import { serverMessages } from "@contracts/messages";
import { isDatabaseUnavailable } from "@contracts/service-unavailable";
import { buildApp } from "../app.js";
import { CHART_LOCK_KEY } from "../modules/charts/repo.js";
import { loadConfig } from "../config.js";
import { captureLog } from "../testing/log-capture.js";
import { cuttableProxy, type CuttableProxy } from "../testing/cuttable-proxy.js";
import { createEmptyPostgresDatabase, dropPostgresDatabase, testAdminUrl, withDatabase } from "../testing/test-db.js";
import { createTestUser, type TestUser } from "../testing/users.js";
import { demoMediaFixture } from "./seed/demo-media.fixture.js";
import { seedDemoCatalogue } from "./seed/index.js";
import { openPostgresDatabase } from "./open.js";
import { queryRows } from "./sql.js";
import type { DatabaseHandle } from "./types.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * A 503 must come at once when PostgreSQL refuses (well under the 5 s connect bound, with room
 * for a busy 2-core machine rendering a page), and within the connect bound when it is silent.
 */
const REFUSED_ANSWER_MS = 3_500;
const SILENT_ANSWER_MS = 7_000;

/**
 * PostgreSQL going away (issue 14 "Bad days", ADR 0040), for real: the app reaches the
 * machine's PostgreSQL through a TCP proxy this test cuts and restores, so nothing else on the
 * machine notices. Kept answers and pages (the production web build) keep being served; a write, or a read no cache holds, answers
 * 503 服务暂时不可用 quickly; nothing crashes; everything comes back on its own.
 */
/** How long the database stays away in the first test; PG_OUTAGE_MS=30000 runs the 30 s. */
const OUTAGE_MS = Number(process.env.PG_OUTAGE_MS) || 2_500;

describe.runIf(process.env.TEST_DATABASE_URL)("PostgreSQL going away", () => {
  let dbName: string;
  let proxy: CuttableProxy;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let dataDir: string;
  let member: TestUser;
  let suites: number[];
  /** A direct connection holding the chart rebuilds' lock (see the first test). */
  let chartsHeld: pg.Client | undefined;
  const log = captureLog("info");
  const crashes: unknown[] = [];
  const onCrash = (err: unknown) => void crashes.push(err);

  const get = async (url: string) => {
    const started = performance.now();
    const res = await app.inject({ url });
    return { res, ms: performance.now() - started };
  };
  const favourite = async (id: number) => {
    const started = performance.now();
    const res = await app.inject({ method: "POST", url: "/api/user/favorite", headers: member.headers, payload: { id } });
    return { res, ms: performance.now() - started };
  };
  const expectUnavailable = (res: Awaited<ReturnType<typeof get>>["res"]) => {
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 0, msg: serverMessages.serviceUnavailable, data: null });
    expect(res.headers["retry-after"]).toBe("5");
  };
  /** Polls `attempt` until it answers 200, for at most `ms`. */
  const recovers = async (attempt: () => Promise<{ res: { statusCode: number } }>, ms = 5_000) => {
    const until = Date.now() + ms;
    for (;;) {
      const { res } = await attempt();
      if (res.statusCode === 200 || Date.now() > until) return res.statusCode;
      await sleep(200);
    }
  };
  const rebuilds = (from = 0) => log.lines.slice(from).filter((l) => l.msg === "charts rebuilt").length;

  beforeAll(async () => {
    process.on("unhandledRejection", onCrash);
    process.on("uncaughtException", onCrash);
    ensureWebBuild();
    dbName = await createEmptyPostgresDatabase();
    const admin = new URL(testAdminUrl());
    proxy = await cuttableProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    const viaProxy = new URL(withDatabase(testAdminUrl(), dbName));
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    database = await openPostgresDatabase(viaProxy.toString(), { poolMax: 4 });
    dataDir = await mkdtemp(path.join(tmpdir(), "djoutage-"));
    const config = loadConfig({ EXTERNAL_SOURCES: "none", CHARTS_REBUILD_INTERVAL_MS: "1000", NODE_ENV: "test", DATA_DIR: dataDir });
    app = await buildApp({ config, database, logger: log.logger, web: true, sourceAdapters: [] });
    await app.ready();
    await seedDemoCatalogue(database, { media: demoMediaFixture, suites: 12, singles: 4, plays: 0, writes: app.services.writes });
    member = await createTestUser(app);
    const rows = await queryRows<{ id: number }>(database.db, sql`select id from items where status = 'normal' order by id limit 3`);
    suites = rows.map((r) => Number(r.id));
  });
  afterAll(async () => {
    proxy?.restore();
    await chartsHeld?.end().catch(() => undefined);
    await app?.close();
    await database?.close();
    await proxy?.close();
    if (dbName) await dropPostgresDatabase(dbName);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    process.off("unhandledRejection", onCrash);
    process.off("uncaughtException", onCrash);
  });

  it("keeps serving kept answers, answers 503 at once for the rest, and recovers on its own", { timeout: OUTAGE_MS + 40_000 }, async () => {
    // A chart rebuild (every second here) drops the kept home page and answer: hold rebuilds
    // off, through their own lock on a direct connection, from priming until after the restore.
    chartsHeld = new pg.Client({ connectionString: withDatabase(testAdminUrl(), dbName) });
    await chartsHeld.connect();
    await chartsHeld.query("select pg_advisory_lock($1::bigint)", [CHART_LOCK_KEY]);
    await app.services.charts.idle();
    expect((await favourite(suites[0])).res.statusCode).toBe(200);
    expect(await app.services.leader.check()).toBe(true);
    // Kept before the outage (after the write above, whose change event drops kept copies).
    const home = await get("/api/forntend/index");
    expect(home.res.statusCode).toBe(200);
    expect((await get(`/api/forntend/getmusicinfo?id=${suites[0]}`)).res.statusCode).toBe(200);
    // Kept pages (ADR 0033): the home page and one suite's page, each rendered once.
    const homePage = await get("/");
    expect(homePage.res.statusCode).toBe(200);
    expect((await get(`/site/${suites[0]}.html`)).res.statusCode).toBe(200);

    // A transaction between two statements when the line is cut: its client is checked out of
    // the pool (no pool listener), which used to make the lost connection an uncaught exception.
    let cutDone!: () => void;
    const afterCut = new Promise<void>((resolve) => (cutDone = resolve));
    const inFlight = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await afterCut;
      await tx.execute(sql`select 2`);
    });
    const inFlightOutcome = inFlight.then(() => "committed", (err: unknown) => (isDatabaseUnavailable(err) ? "unavailable" : String(err)));
    await sleep(50);

    proxy.cut("refuse");
    await sleep(50);
    cutDone();
    expect(await inFlightOutcome, "the transaction in flight at the cut").toBe("unavailable");
    const keptPage = await get("/");
    expect(keptPage.res.statusCode).toBe(200);
    expect(keptPage.res.body).toBe(homePage.res.body);
    expect((await get(`/site/${suites[0]}.html`)).res.statusCode).toBe(200);
    // A page no cache holds: the page's 503 with the same text, quickly.
    const missedPage = await get(`/site/${suites[1]}.html`);
    expect(missedPage.res.statusCode).toBe(503);
    expect(missedPage.res.body).toContain(serverMessages.serviceUnavailable);
    expect(missedPage.ms).toBeLessThan(REFUSED_ANSWER_MS);

    const keptHome = await get("/api/forntend/index");
    expect(keptHome.res.statusCode, keptHome.res.body).toBe(200);
    expect(keptHome.res.body).toBe(home.res.body);
    // A kept suite answer, its view counted in memory (written when the database is back).
    expect((await get(`/api/forntend/getmusicinfo?id=${suites[0]}`)).res.statusCode).toBe(200);

    const write = await favourite(suites[1]);
    expectUnavailable(write.res);
    expect(write.ms).toBeLessThan(REFUSED_ANSWER_MS);
    const miss = await get(`/api/forntend/getmusicinfo?id=${suites[1]}`);
    expectUnavailable(miss.res);
    expect(miss.ms).toBeLessThan(REFUSED_ANSWER_MS);
    expect((await get("/healthz")).res.statusCode).toBe(503);

    // Background timers keep ticking through it: the chart rebuild finds no lease and no database.
    await sleep(OUTAGE_MS);
    expect(app.services.leader.held, "the lease while the database is away").toBe(false);
    // Still the same at the end of the outage: kept pages served, writes refused at once.
    expect((await get("/")).res.body).toBe(homePage.res.body);
    const late = await favourite(suites[1]);
    expectUnavailable(late.res);
    expect(late.ms).toBeLessThan(REFUSED_ANSWER_MS);
    const mark = log.lines.length;

    proxy.restore();
    // The pool opens new connections on the next request; nothing needs a restart.
    expect(await recovers(() => favourite(suites[1]))).toBe(200);
    expect(await recovers(() => get(`/api/forntend/getmusicinfo?id=${suites[1]}`))).toBe(200);
    expect((await get("/healthz")).res.statusCode).toBe(200);
    expect(await recovers(() => get(`/site/${suites[1]}.html`))).toBe(200);
    await chartsHeld.end();
    chartsHeld = undefined;
    // The lease is taken again (a lost holder sits out one tick) and the charts rebuild again.
    const until = Date.now() + 6_000;
    while ((!app.services.leader.held || rebuilds(mark) === 0) && Date.now() < until) await sleep(100);
    expect(app.services.leader.held, "the lease after the restore").toBe(true);
    expect(rebuilds(mark), "chart rebuilds after the restore").toBeGreaterThanOrEqual(1);
    // The view counted during the outage was kept and written once the database answered.
    await app.services.suites.flushViews();
    expect(crashes).toEqual([]);
    // The failed requests were warnings with the cause, never a 500's "request failed".
    expect(log.lines.filter((l) => l.msg === "request failed")).toEqual([]);
    expect(log.lines.some((l) => l.msg === "database unavailable")).toBe(true);
  });

  it("answers 503 within the connect bound when PostgreSQL is silent (packets dropped), not at the request timeout", async () => {
    proxy.cut("blackhole");
    try {
      const miss = await get(`/api/forntend/getmusicinfo?id=${suites[2]}`);
      expectUnavailable(miss.res);
      expect(miss.ms).toBeLessThan(SILENT_ANSWER_MS);
    } finally {
      proxy.restore();
    }
    expect(await recovers(() => get(`/api/forntend/getmusicinfo?id=${suites[2]}`))).toBe(200);
    expect(crashes).toEqual([]);
  });
});
