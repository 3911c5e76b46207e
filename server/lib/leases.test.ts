import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresDatabase } from "../db/open.js";
import type { DatabaseHandle } from "../db/types.js";
import { createEmptyPostgresDatabase, createTestDatabase, dropPostgresDatabase, testAdminUrl, withAdminClient, withDatabase } from "../testing/test-db.js";
import { advisoryLease, LEADER_LOCK_KEY, leaderLease, onlyOnLeader, type LeaderLease } from "./leases.js";

const quiet = { info() {}, warn() {} };

/**
 * Checks every 100 ms until it answers true, for at most `withinMs` (the test's stand-in for
 * "the next timer tick"): pg_terminate_backend only signals the backend, which ends a moment later.
 */
async function takesItWithin(lease: LeaderLease, withinMs = 2_000): Promise<boolean> {
  const until = Date.now() + withinMs;
  for (;;) {
    if (await lease.check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("leader lease on PGlite", () => {
  it("is always held by the one process, until closed", async () => {
    const database = await createTestDatabase("pglite");
    try {
      const lease = leaderLease(database, quiet);
      expect(await lease.check()).toBe(true);
      let runs = 0;
      await onlyOnLeader(lease, async () => runs++)();
      expect(runs).toBe(1);
      await lease.close();
      expect(await lease.check()).toBe(false);
      await onlyOnLeader(lease, async () => runs++)();
      expect(runs).toBe(1);
    } finally {
      await database.close();
    }
  });
});

describe("advisory lease without a database", () => {
  it("answers false, never throws, while the database cannot be reached", async () => {
    const unreachable: LeaderLease = advisoryLease({
      // A port nothing listens on: the connection is refused at once.
      connect: () => new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 1000 }),
      logger: quiet,
    });
    expect(await unreachable.check()).toBe(false);
    expect(await unreachable.check()).toBe(false);
    await unreachable.close();
  });
});

/** The backend pids holding the leader lock of `database` (pg_locks: objid is the key's low 32 bits). */
async function holders(database: string): Promise<number[]> {
  return withAdminClient(async (c) => {
    const { rows } = await c.query<{ pid: number }>(
      `select l.pid from pg_locks l join pg_database d on d.oid = l.database
        where l.locktype = 'advisory' and l.granted and d.datname = $1 and l.objid = $2`,
      [database, LEADER_LOCK_KEY % 2 ** 32],
    );
    return rows.map((r) => r.pid);
  });
}

describe.runIf(process.env.TEST_DATABASE_URL)("leader lease on PostgreSQL", () => {
  let name: string;
  let handles: DatabaseHandle[] = [];
  const open = async () => {
    const handle = await openPostgresDatabase(withDatabase(testAdminUrl(), name), { poolMax: 2 });
    handles.push(handle);
    return handle;
  };
  const lease = (handle: DatabaseHandle) => leaderLease(handle, quiet);

  beforeAll(async () => {
    name = await createEmptyPostgresDatabase();
  });
  afterAll(async () => {
    for (const h of handles) await h.close();
    handles = [];
    await dropPostgresDatabase(name);
  });

  it("is held by one instance at a time; closing it hands it to the other's next check", async () => {
    const [a, b] = [lease(await open()), lease(await open())];
    try {
      expect(await a.check()).toBe(true);
      expect(await b.check()).toBe(false);
      // Asked again (each timer tick asks), the holder keeps it and the other still waits.
      expect(await Promise.all([a.check(), a.check(), b.check()])).toEqual([true, true, false]);
      expect(await holders(name)).toHaveLength(1);
      await a.close();
      expect(a.held).toBe(false);
      expect(await b.check()).toBe(true);
      expect(await a.check()).toBe(false);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("asks PostgreSQL to probe its session, so a vanished machine's lease ends in seconds, not hours", async () => {
    const handle = await open();
    let made: pg.Client | undefined;
    const probed = advisoryLease({ connect: () => (made = handle.dedicatedConnection!()), logger: quiet });
    try {
      expect(await probed.check()).toBe(true);
      const show = async (name: string) => (await made!.query(`show ${name}`)).rows[0][name];
      expect([await show("tcp_keepalives_idle"), await show("tcp_keepalives_interval"), await show("tcp_keepalives_count")]).toEqual(["10", "5", "3"]);
    } finally {
      await probed.close();
    }
  });

  it("moves to the other instance when the holder's backend is terminated (a killed process)", async () => {
    const [a, b] = [lease(await open()), lease(await open())];
    try {
      expect(await a.check()).toBe(true);
      expect(await b.check()).toBe(false);
      const [pid] = await holders(name);
      await withAdminClient((c) => c.query("select pg_terminate_backend($1)", [pid]));
      // PostgreSQL freed the lock with the session: the survivor's next check takes it...
      expect(await takesItWithin(b)).toBe(true);
      // ...and the old holder learns it lost it (its connection is gone) instead of running twice.
      expect(await a.check()).toBe(false);
      expect(a.held).toBe(false);
      expect(await holders(name)).toHaveLength(1);
      // The survivor dies too: the first instance, still running, takes it back on a new connection.
      await withAdminClient(async (c) => c.query("select pg_terminate_backend($1)", [(await holders(name))[0]]));
      expect(await takesItWithin(a)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
