/**
 * Issue 24, point 4: a balance is the sum of its ledger even across kill -9 (ADR 0061). The real
 * server (a child process on PGlite) is killed with SIGKILL while members check in, buy priced
 * downloads and VIP as fast as it answers, five times; afterwards every balance equals the sum of
 * its ledger rows, and every acknowledged purchase has its purchase and ledger rows.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPgliteDatabase } from "../server/db/open";
import { coinLedger } from "../server/db/schema/index";
import { queryRows } from "../server/db/sql";
import { inProcessBus } from "../server/events/bus";
import { catalogueWriteService } from "../server/modules/catalogue-write/service";
import { economyRepo } from "../server/modules/economy/repo";
import { addMembers, login, openCopyOf, startKillableSite } from "./killable-site";
import { NO_BACKGROUND_JOBS } from "./site";

// Five kills: each lands mid-stream with writes in flight; more rounds only repeat the case (suite time).
const ROUNDS = 5;
const MEMBERS = 6;
const SUITES = 40;
const START_COINS = 2_000;
/** Killed once this many spends or gains of the round were acknowledged: the others are in flight. */
const KILL_AFTER_ACKS = 12;
const PASSWORD = "coin-crash-1";
const ENV = { ...NO_BACKGROUND_JOBS, SEED_DEMO: "0", PGLITE_VACUUM_INTERVAL_MS: "0", PRERENDER_BEFORE_LISTEN_MS: "0" };

type Acked = { user: string; kind: "download"; item: number; charged: number } | { user: string; kind: "vip" | "checkin" };

describe("the coin ledger and kill -9", () => {
  let dataDir = "";
  let names: string[] = [];
  let suites: number[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "djcoincrash-"));
    const first = await startKillableSite(dataDir, ENV);
    await first.healthy();
    expect(await first.stop()).toBe(0);
    names = await addMembers(dataDir, MEMBERS, PASSWORD);
    // Priced suites and a starting balance (with its opening row), written while the site is stopped.
    const database = await openPgliteDatabase(path.join(dataDir, "db"));
    try {
      const writes = catalogueWriteService(database.db, inProcessBus());
      for (let i = 0; i < SUITES; i++) {
        suites.push(
          await writes.createItem({ kind: "mix", title: `金币测试串烧${i}`, playUrl: "/media/x.m4a", sourceSite: "local", price: 1 + (i % 9), vipdown: "0", weburl: `https://pan.example.cn/s/${i}`, webPassword: "abcd" }),
        );
      }
      await database.db.execute(sql`update users set coins = ${START_COINS}`);
      const ids = await queryRows<{ id: number }>(database.db, sql`select id from users`);
      await database.db.insert(coinLedger).values(ids.map(({ id }) => ({ userId: id, amount: START_COINS, balanceAfter: START_COINS, reason: "opening" as const, note: "期初余额" })));
    } finally {
      await database.close();
    }
  }, 300_000);
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(`every balance is the sum of its ledger after ${ROUNDS} kills mid-stream`, { timeout: 1_200_000 }, async () => {
    const acked: Acked[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const site = await startKillableSite(dataDir, ENV);
      await site.healthy();
      const tokens = await Promise.all(names.map((n) => login(site.url, n, PASSWORD)));
      let roundAcks = 0;
      let killed: Promise<unknown> | undefined;
      let stopped = false;
      const post = async (token: string, route: string, body: object) => {
        const res = await fetch(`${site.url}${route}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
        return (await res.json()) as { code: number; data: { charged?: number } };
      };
      const ack = (a: Acked) => {
        acked.push(a);
        if (++roundAcks === KILL_AFTER_ACKS) killed = site.kill();
      };
      const worker = async (name: string, token: string, offset: number) => {
        for (let i = 0; !stopped && i < 200; i++) {
          try {
            if (i === 0) {
              if ((await post(token, "/api/user/checkin", {})).code === 1) ack({ user: name, kind: "checkin" });
            } else if (i % 10 === 5) {
              if ((await post(token, "/api/user/buyvip", { plan: "m1" })).code === 1) ack({ user: name, kind: "vip" });
            } else {
              const item = suites[(offset * 7 + round * 13 + i) % SUITES]!;
              const answer = await post(token, "/api/user/download", { id: item });
              if (answer.code === 1 && answer.data.charged! > 0) ack({ user: name, kind: "download", item, charged: answer.data.charged! });
            }
          } catch {
            return; // the server is gone
          }
        }
      };
      await Promise.all(names.map((n, i) => worker(n, tokens[i]!, i)));
      stopped = true;
      expect(await (killed ?? site.kill())).toBe("SIGKILL");
    }

    const restarted = await startKillableSite(dataDir, ENV);
    await restarted.healthy();
    expect(await restarted.stop()).toBe(0);
    const after = await openCopyOf(dataDir);
    try {
      const db = after.database.db;
      expect(await economyRepo(db).mismatches()).toEqual([]);
      const last = await queryRows<{ coins: number; last: number }>(
        db,
        sql`select u.coins, (select balance_after from coin_ledger l where l.user_id = u.id order by l.id desc limit 1) as last from users u`,
      );
      for (const row of last) expect(row.last).toBe(row.coins);
      const downloads = acked.filter((a) => a.kind === "download");
      expect(downloads.length).toBeGreaterThan(ROUNDS);
      expect(acked.filter((a) => a.kind === "checkin").length).toBeGreaterThan(0);
      // Every acknowledged purchase is there: its purchase row and its ledger row.
      for (const a of downloads) {
        const [row] = await queryRows<{ purchases: number; ledger: number }>(
          db,
          sql`select (select count(*)::int from download_purchases p join users u on u.id = p.user_id where u.username = ${a.user} and p.item_id = ${a.item}) as purchases,
                     (select count(*)::int from coin_ledger l join users u on u.id = l.user_id where u.username = ${a.user} and l.item_id = ${a.item} and l.reason = 'download') as ledger`,
        );
        expect(row).toEqual({ purchases: 1, ledger: 1 });
      }
      const [vips] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from coin_ledger where reason = 'vip'`);
      expect(vips!.n).toBeGreaterThanOrEqual(acked.filter((a) => a.kind === "vip").length);
    } finally {
      await after.dispose();
    }
  });
});
