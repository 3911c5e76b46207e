import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import { openPostgresDatabase } from "../db/open.js";
import type { DatabaseHandle } from "../db/types.js";
import { captureLog } from "../testing/log-capture.js";
import { createEmptyPostgresDatabase, dropPostgresDatabase, testAdminUrl, withAdminClient, withDatabase } from "../testing/test-db.js";
import { LEADER_LOCK_KEY } from "./leases.js";

/** The shortest interval the configuration allows: "within one interval" below means this. */
const INTERVAL_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until `done()` holds, for at most `ms`; answers whether it did. */
async function within(ms: number, done: () => boolean): Promise<boolean> {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await sleep(50);
  return done();
}
/** One interval, plus the rebuild itself and a busy machine's timer slack. */
const ONE_INTERVAL = INTERVAL_MS + 1_000;

interface Instance {
  name: string;
  app: FastifyInstance;
  database: DatabaseHandle;
  log: ReturnType<typeof captureLog>;
  dataDir: string;
  closed: boolean;
}

/**
 * Two instances of the real app (buildApp) in this process on one PostgreSQL database, each
 * with its own pool, logger and background chart rebuilds every second (ADR 0040).
 */
describe.runIf(process.env.TEST_DATABASE_URL)("background work runs once across two instances", () => {
  let dbName: string;
  const instances: Instance[] = [];

  const start = async (name: string): Promise<Instance> => {
    const database = await openPostgresDatabase(withDatabase(testAdminUrl(), dbName), { poolMax: 3 });
    const dataDir = await mkdtemp(path.join(tmpdir(), "djlease-"));
    const log = captureLog("debug");
    const config = loadConfig({ EXTERNAL_SOURCES: "none", CHARTS_REBUILD_INTERVAL_MS: String(INTERVAL_MS), NODE_ENV: "test", DATA_DIR: dataDir });
    const app = await buildApp({ config, database, logger: log.logger, sourceAdapters: [] });
    await app.ready();
    const instance = { name, app, database, log, dataDir, closed: false };
    instances.push(instance);
    return instance;
  };
  const stop = async (i: Instance) => {
    if (i.closed) return;
    i.closed = true;
    await i.app.close();
    await i.database.close();
    await rm(i.dataDir, { recursive: true, force: true });
  };
  /** Rebuilds the instance ran since `mark` (a line count of its log). */
  const rebuildsSince = (i: Instance, mark = 0) => i.log.lines.slice(mark).filter((l) => l.msg === "charts rebuilt").length;
  const skipsSince = (i: Instance, mark = 0) => i.log.lines.slice(mark).filter((l) => l.msg === "charts rebuild skipped: another instance leads").length;
  const marks = (list: Instance[]) => list.map((i) => i.log.lines.length);
  const leaderPid = () =>
    withAdminClient(async (c) => {
      const { rows } = await c.query<{ pid: number }>(
        `select l.pid from pg_locks l join pg_database d on d.oid = l.database
          where l.locktype = 'advisory' and l.granted and d.datname = $1 and l.objid = $2`,
        [dbName, LEADER_LOCK_KEY % 2 ** 32],
      );
      return rows.map((r) => r.pid);
    });

  beforeAll(async () => {
    dbName = await createEmptyPostgresDatabase();
  });
  afterAll(async () => {
    for (const i of instances) await stop(i);
    await dropPostgresDatabase(dbName);
  });

  it("only the lease holder rebuilds charts; closing it moves the work to the other within one interval", async () => {
    const a = await start("a");
    // A starts first and takes the lease at its first tick; B's ticks find it held.
    await sleep(200);
    const b = await start("b");
    await sleep(3 * INTERVAL_MS);
    expect(rebuildsSince(a)).toBeGreaterThanOrEqual(2);
    expect(rebuildsSince(b)).toBe(0);
    expect(skipsSince(b)).toBeGreaterThanOrEqual(2);
    expect(await leaderPid()).toHaveLength(1);

    await stop(a);
    const [, fromB] = marks([a, b]);
    expect(await within(ONE_INTERVAL, () => rebuildsSince(b, fromB) >= 1)).toBe(true);
    expect(b.app.services.leader.held).toBe(true);
    await stop(b);
  });

  it("terminating the holder's backend (a killed process) moves the work to the other within one interval", async () => {
    const c = await start("c");
    await sleep(200);
    const d = await start("d");
    await sleep(2 * INTERVAL_MS);
    expect(c.app.services.leader.held).toBe(true);
    expect(rebuildsSince(d)).toBe(0);

    const pids = await leaderPid();
    expect(pids).toHaveLength(1);
    await withAdminClient((admin) => admin.query("select pg_terminate_backend($1)", [pids[0]]));
    const [, fromD] = marks([c, d]);
    expect(await within(ONE_INTERVAL, () => rebuildsSince(d, fromD) >= 1)).toBe(true);
    expect(d.app.services.leader.held).toBe(true);
    expect(c.app.services.leader.held).toBe(false);
    // From now on only D rebuilds: C, still running, found its lease gone and does not take it back.
    const [fromC2, fromD2] = marks([c, d]);
    await sleep(2 * INTERVAL_MS);
    expect(rebuildsSince(c, fromC2)).toBe(0);
    expect(rebuildsSince(d, fromD2)).toBeGreaterThanOrEqual(1);
    expect(c.log.lines.some((l) => l.msg === "leader lease lost")).toBe(true);
  });
});
