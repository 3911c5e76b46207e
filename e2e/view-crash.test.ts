/**
 * Issue 23, point 2: a view the server acknowledged survives kill -9. The real server (a child
 * process on PGlite) is killed with SIGKILL right after its view beacons were answered, twenty
 * times; every acknowledged view is in the database afterwards (group commit: a beacon is
 * answered only once its view is committed, ADR 0053).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPgliteDatabase } from "../server/db/open";
import { queryRows } from "../server/db/sql";
import { inProcessBus } from "../server/events/bus";
import { catalogueWriteService } from "../server/modules/catalogue-write/service";
import { openCopyOf, startKillableSite } from "./killable-site";
import { NO_BACKGROUND_JOBS } from "./site";

const ROUNDS = 20;
const VISITORS = 12;
/** Killed once this many beacons of the round were answered: the rest are still in flight. */
const KILL_AFTER_ACKS = 6;
const ENV = { ...NO_BACKGROUND_JOBS, SEED_DEMO: "0", PGLITE_VACUUM_INTERVAL_MS: "0", PRERENDER_BEFORE_LISTEN_MS: "0" };

describe("acknowledged views and kill -9", () => {
  let dataDir = "";
  let itemId = 0;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "djviewcrash-"));
    // First start makes the database; one suite is added while the site is stopped.
    const first = await startKillableSite(dataDir, ENV);
    await first.healthy();
    expect(await first.stop()).toBe(0);
    const database = await openPgliteDatabase(path.join(dataDir, "db"));
    try {
      itemId = await catalogueWriteService(database.db, inProcessBus()).createItem({ kind: "mix", title: "断电测试串烧", playUrl: "/media/x.m4a", sourceSite: "local" });
    } finally {
      await database.close();
    }
  }, 300_000);
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(`loses none of the views acknowledged before ${ROUNDS} kills`, { timeout: 1_200_000 }, async () => {
    let acked = 0;
    let sent = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const site = await startKillableSite(dataDir, ENV);
      await site.healthy();
      // Each visitor's first answer (the page) gives it the signed cookie its beacon carries.
      const cookies = await Promise.all(
        Array.from({ length: VISITORS }, async () => {
          const res = await fetch(`${site.url}/sutie/${itemId}.html`);
          expect(res.status).toBe(200);
          await res.arrayBuffer();
          return String(res.headers.get("set-cookie")).split(";")[0]!;
        }),
      );
      expect(cookies.every((c) => c.startsWith("vid="))).toBe(true);
      let roundAcks = 0;
      let killed: Promise<unknown> | undefined;
      const beacons = cookies.map(async (cookie) => {
        sent++;
        const res = await fetch(`${site.url}/api/forntend/view`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify({ id: itemId }),
        }).catch(() => null);
        if (!res) return;
        const body = (await res.json().catch(() => null)) as { code: number; data: { counted: boolean } } | null;
        if (res.status !== 200 || !body) return;
        expect(body.data.counted).toBe(true);
        acked++;
        if (++roundAcks === KILL_AFTER_ACKS) killed = site.kill();
      });
      await Promise.all(beacons);
      // Every beacon answered before the kill (a round may answer them all first): kill now.
      expect(await (killed ?? site.kill())).toBe("SIGKILL");
    }

    const restarted = await startKillableSite(dataDir, ENV);
    await restarted.healthy();
    expect(await restarted.stop()).toBe(0);
    const after = await openCopyOf(dataDir);
    try {
      const [{ views }] = await queryRows<{ views: number }>(
        after.database.db,
        sql`select view_count + coalesce((select views from item_view_deltas where item_id = ${itemId}), 0) as views from items where id = ${itemId}`,
      );
      expect(acked).toBeGreaterThanOrEqual(ROUNDS * KILL_AFTER_ACKS);
      // None lost; at most the beacons in flight at a kill were written without their answer.
      expect(views).toBeGreaterThanOrEqual(acked);
      expect(views).toBeLessThanOrEqual(sent);
    } finally {
      await after.dispose();
    }
  });
});
