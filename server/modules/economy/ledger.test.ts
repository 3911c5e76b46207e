/**
 * A balance is always the sum of its ledger (ADR 0061), on both engines: after a mix of every
 * kind of change, simultaneous ones included, and for balances from before the ledger (the
 * migration's opening rows).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMigrations, migrate } from "../../db/migrate.js";
import { queryRows } from "../../db/sql.js";
import { silentLogger } from "../../db/types.js";
import { adjustableClock, type AdjustableClock } from "../../lib/clock.js";
import { createTestAdmin } from "../../testing/admins.js";
import { openRawSession, testEngines } from "../../testing/test-db.js";
import type { TestApp } from "../../testing/test-app.js";
import { createTestUser, type TestUser } from "../../testing/users.js";
import { call, itemIds, libraryTestApp } from "../library/test-fixtures.js";

const DAY = 86_400_000;

describe.each(testEngines())("the coin ledger on %s", (engine) => {
  let t: TestApp;
  let clock: AdjustableClock;

  beforeAll(async () => {
    clock = adjustableClock();
    t = await libraryTestApp(engine, { clock });
  });
  afterAll(() => t?.close());

  const lastBalances = () =>
    queryRows<{ user_id: number; coins: number; last: number }>(
      t.database.db,
      sql`select u.id as user_id, u.coins, (select balance_after from coin_ledger l where l.user_id = u.id order by l.id desc limit 1) as last
            from users u where u.coins <> 0`,
    );

  it("after check-ins, purchases, re-downloads, VIP, grants, deductions and edits, at once and in turn", async () => {
    const [a, b, c] = await itemIds(t, "mix");
    const w = t.app.services.writes;
    for (const [i, id] of [a, b, c].entries()) await w.updateItem(id!, { vipdown: "0", price: 7 + i, weburl: `https://pan.example.cn/s/${id}`, webPassword: "x" });
    const { id: adminId } = await createTestAdmin(t.database.db, { role: "super" });
    const members: TestUser[] = [];
    for (let i = 0; i < 4; i++) members.push(await createTestUser(t.app, { coins: i * 40 }));

    const post = (u: TestUser, url: string, body?: unknown) => call(t.app, "POST", url, { headers: u.headers, body });
    for (let day = 0; day < 3; day++) {
      // A session of the day: the clock moves a day at a time, past an admin session's life.
      const bossHeaders = { authorization: `Bearer ${await t.app.services.sessions.createAdminSession(adminId)}` };
      // Every member at once: check-ins (twice each), downloads of each priced suite (twice each),
      // a VIP, an admin's grant, deduction and edit of the balance.
      await Promise.all(
        members.flatMap((u, i) => [
          post(u, "/api/user/checkin"),
          post(u, "/api/user/checkin"),
          ...[a, b, c].flatMap((id) => [post(u, "/api/user/download", { id }), post(u, "/api/user/download", { id })]),
          post(u, "/api/user/buyvip", { plan: "m1" }),
          call(t.app, "POST", `/api/pandaadmin/users/${u.id}/coins`, { headers: bossHeaders, body: { amount: 5 + i, reason: "奖励" } }),
          call(t.app, "POST", `/api/pandaadmin/users/${u.id}/coins`, { headers: bossHeaders, body: { amount: -(3 + i), reason: "扣除" } }),
          t.app.inject({ method: "PATCH", url: `/api/pandaadmin/users/${u.id}`, headers: bossHeaders, payload: { coins: 60 + day * 10 + i } }),
        ]),
      );
      clock.advance(DAY);
    }
    expect(await t.app.services.economy.mismatches()).toEqual([]);
    for (const row of await lastBalances()) expect(row.last).toBe(row.coins);
    const reasons = await queryRows<{ reason: string }>(t.database.db, sql`select distinct reason from coin_ledger order by reason`);
    expect(reasons.map((r) => r.reason)).toEqual(expect.arrayContaining(["admin_deduct", "admin_grant", "admin_set", "checkin", "download", "opening"]));
    // The admins' moves happened on each of the three days.
    const adminDays = await queryRows<{ n: number }>(t.database.db, sql`select count(distinct created_at::date)::int as n from coin_ledger where reason like 'admin%'`);
    expect(adminDays[0]!.n).toBeGreaterThanOrEqual(3);
  });

  it("dates an admin's edit of the balance by the server's clock, as every other row", async () => {
    clock.advance(10 * DAY);
    const { id: adminId } = await createTestAdmin(t.database.db, { role: "super" });
    const headers = { authorization: `Bearer ${await t.app.services.sessions.createAdminSession(adminId)}` };
    const member = await createTestUser(t.app, { coins: 10 });
    const res = await t.app.inject({ method: "PATCH", url: `/api/pandaadmin/users/${member.id}`, headers, payload: { coins: 25 } });
    expect(res.statusCode).toBe(200);
    const [row] = await queryRows<{ at: Date | string }>(t.database.db, sql`select created_at as at from coin_ledger where user_id = ${member.id} and reason = 'admin_set'`);
    expect(Math.abs(new Date(row!.at).getTime() - clock().getTime())).toBeLessThan(60_000);
  });

  it("a refused spend writes nothing: neither balance nor ledger moves", async () => {
    const u = await createTestUser(t.app, { coins: 3 });
    const [a] = await itemIds(t, "mix");
    expect((await call(t.app, "POST", "/api/user/download", { headers: u.headers, body: { id: a } })).status).toBe(400);
    expect((await call(t.app, "POST", "/api/user/buyvip", { headers: u.headers, body: { plan: "y1" } })).status).toBe(400);
    const rows = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from coin_ledger where user_id = ${u.id}`);
    expect(rows[0]!.n).toBe(1);
    expect(await t.app.services.economy.mismatches()).toEqual([]);
  });
});

describe.each(testEngines())("migration 0020 on %s", (engine) => {
  it("gives every balance from before the ledger its opening row", async () => {
    const raw = await openRawSession(engine);
    try {
      const all = loadMigrations();
      const at = all.findIndex((m) => m.tag.startsWith("0020_"));
      await migrate(raw.session, silentLogger, all.slice(0, at));
      await raw.session.exec(`insert into users (username, email, password_hash, coins) values
        ('rich', 'rich@example.test', 'x', 120), ('poor', 'poor@example.test', 'x', 0), ('some', 'some@example.test', 'x', 7)`);
      await migrate(raw.session, silentLogger, all);
      const rows = await raw.session.query<{ username: string; amount: number; balance_after: number; reason: string }>(
        `select u.username, l.amount, l.balance_after, l.reason from coin_ledger l join users u on u.id = l.user_id order by u.username`,
      );
      expect(rows).toEqual([
        { username: "rich", amount: 120, balance_after: 120, reason: "opening" },
        { username: "some", amount: 7, balance_after: 7, reason: "opening" },
      ]);
    } finally {
      await raw.close();
    }
  });
});
