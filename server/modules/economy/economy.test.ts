/**
 * The member economy's calls on both engines (ADR 0061): check-ins by China day with their
 * streak, VIP bought with coins, 收支明细, and the back office's grants and deductions.
 */
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { COINS_MAX } from "@contracts/admin-people-texts";
import { aboveMax, belowZero, checkinAtMax, checkinCoins, economyMessages as m, vipShort } from "@contracts/economy";
import { auditLog, users } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { adjustableClock, type AdjustableClock } from "../../lib/clock.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser, type TestUser } from "../../testing/users.js";
import { call, expectRefused } from "../library/test-fixtures.js";

const DAY = 86_400_000;

describe.each(testEngines())("the member economy on %s", (engine) => {
  let t: TestApp;
  let clock: AdjustableClock;
  let boss: { id: number; headers: { authorization: string } };
  let editor: typeof boss;

  const checkin = (u: TestUser) => call(t.app, "POST", "/api/user/checkin", { headers: u.headers });
  const buyVip = (u: TestUser, plan: unknown) => call(t.app, "POST", "/api/user/buyvip", { headers: u.headers, body: { plan } });
  const wallet = (u: TestUser) => call(t.app, "GET", "/api/user/wallet", { headers: u.headers });
  const coinlog = (u: TestUser, query = "") => call(t.app, "GET", `/api/user/coinlog${query}`, { headers: u.headers });
  const adjust = (id: number, body: unknown, headers = boss.headers) => call(t.app, "POST", `/api/pandaadmin/users/${id}/coins`, { headers, body });
  const member = async (id: number) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;

  beforeAll(async () => {
    clock = adjustableClock();
    t = await createTestApp(engine, { clock });
  });
  // The tests move the app's clock by days: admin sessions made by the app's own clock, fresh for each test.
  const admin = async (role: "super" | "editor") => {
    const { id } = await createTestAdmin(t.database.db, { role });
    const token = await t.app.services.sessions.createAdminSession(id);
    return { id, headers: { authorization: `Bearer ${token}` } };
  };
  beforeEach(async () => {
    boss = await admin("super");
    editor = await admin("editor");
  });
  afterAll(() => t?.close());

  it("a check-in gives 2 coins once a China day; a second is 409 今日已签到 and gives nothing", async () => {
    const u = await createTestUser(t.app);
    expect(await wallet(u)).toMatchObject({ status: 200, data: { coins: 0, checkedIn: false, streak: 0 } });
    expect(await checkin(u)).toMatchObject({ status: 200, code: 1, msg: m.checkinOk, data: { coins: 2, gained: 2, streak: 1 } });
    expectRefused(await checkin(u), 409, m.alreadyCheckedIn);
    expect((await member(u.id)).coins).toBe(2);
    expect(await wallet(u)).toMatchObject({ data: { coins: 2, checkedIn: true, streak: 1 } });
  });

  it("a balance at the most it may hold gets a check-in refused with why, and nothing kept: once spent, the check-in works", async () => {
    const full = await createTestUser(t.app, { coins: COINS_MAX });
    expectRefused(await checkin(full), 400, checkinAtMax(COINS_MAX));
    expect(await wallet(full)).toMatchObject({ data: { coins: COINS_MAX, checkedIn: false } });
    expect(await adjust(full.id, { amount: -10, reason: "腾出空间" })).toMatchObject({ status: 200 });
    expect(await checkin(full)).toMatchObject({ status: 200, data: { coins: COINS_MAX - 8, gained: 2, streak: 1 } });
  });

  it("consecutive days add 1 coin each, up to 5 more; a missed day starts again at 2", async () => {
    const u = await createTestUser(t.app);
    const gains: number[] = [];
    for (let day = 0; day < 8; day++) {
      const r = await checkin(u);
      expect(r.data.streak).toBe(day + 1);
      gains.push(r.data.gained);
      clock.advance(DAY);
    }
    expect(gains).toEqual([2, 3, 4, 5, 6, 7, 7, 7]);
    expect(await wallet(u)).toMatchObject({ data: { checkedIn: false, streak: 8 } });
    clock.advance(DAY); // a day without a check-in
    expect(await checkin(u)).toMatchObject({ data: { gained: 2, streak: 1 } });
    expect((await member(u.id)).coins).toBe(gains.reduce((a, b) => a + b, 0) + 2);
    expect(checkinCoins(100)).toBe(7);
  });

  it("the China day decides: 23:59 and 00:01 in Shanghai are two days", async () => {
    const u = await createTestUser(t.app);
    // Move the clock to 15:59 UTC (23:59 in China) of some day, then two minutes on.
    const now = clock().getTime();
    const target = Math.floor(now / DAY) * DAY + DAY + 15 * 3_600_000 + 59 * 60_000;
    clock.advance(target - now);
    expect((await checkin(u)).status).toBe(200);
    clock.advance(2 * 60_000);
    expect(await checkin(u)).toMatchObject({ status: 200, data: { streak: 2, gained: 3 } });
  });

  it("simultaneous check-ins pay once", async () => {
    const u = await createTestUser(t.app);
    const answers = await Promise.all(Array.from({ length: 6 }, () => checkin(u)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(5);
    expect((await member(u.id)).coins).toBe(2);
    expect((await coinlog(u)).data.total).toBe(1);
  });

  it("VIP with coins: refused when short, else from now, then extended from its end", async () => {
    const u = await createTestUser(t.app, { coins: 99 });
    expectRefused(await buyVip(u, "m1"), 400, vipShort("VIP 30天", 100, 99));
    expect((await member(u.id)).vipUntil).toBeNull();
    expectRefused(await buyVip(u, "forever"), 400, m.badPlan);
    expectRefused(await buyVip(u, undefined), 400, m.badPlan);
    await adjust(u.id, { amount: 301, reason: "活动奖励" });
    const first = await buyVip(u, "m1");
    expect(first).toMatchObject({ status: 200, msg: m.vipOk, data: { coins: 300, charged: 100, days: 30 } });
    expect(Math.abs(first.data.vipUntil - (clock().getTime() + 30 * DAY) / 1000)).toBeLessThan(5);
    const second = await buyVip(u, "m3");
    expect(second.data).toMatchObject({ coins: 30, vipUntil: first.data.vipUntil + 90 * 86_400 });
    expect(Math.floor((await member(u.id)).vipUntil!.getTime() / 1000)).toBe(second.data.vipUntil);
    expect(await wallet(u)).toMatchObject({ data: { coins: 30, vipUntil: second.data.vipUntil } });
  });

  it("an expired VIP is extended from now, not from its old end", async () => {
    const u = await createTestUser(t.app, { coins: 100, vipUntil: new Date(clock().getTime() - 10 * DAY) });
    const r = await buyVip(u, "m1");
    expect(Math.abs(r.data.vipUntil - (clock().getTime() + 30 * DAY) / 1000)).toBeLessThan(5);
  });

  it("收支明细: every gain and spend with its reason, newest first, paged", async () => {
    const u = await createTestUser(t.app, { coins: 150 });
    await checkin(u);
    await buyVip(u, "m1");
    await adjust(u.id, { amount: -2, reason: "违规扣除" });
    const log = await coinlog(u);
    expect(log.status).toBe(200);
    expect(log.data.total).toBe(4);
    expect(log.data.list.map((r: any) => [r.amount, r.balance, r.reason, r.reason_text, r.note])).toEqual([
      [-2, 50, "admin_deduct", "管理员扣除", "管理员扣除：违规扣除"],
      [-100, 52, "vip", "开通VIP", "开通VIP 30天"],
      [2, 152, "checkin", "每日签到", "每日签到（连续1天）"],
      [150, 150, "opening", "期初余额", "期初余额"],
    ]);
    const page2 = await coinlog(u, "?page=2&size=3");
    expect(page2.data).toMatchObject({ total: 4, list: [{ reason: "opening" }] });
    expectRefused(await coinlog(u, "?page=0"), 400, "页码必须是1到10000之间的整数");
    const other = await createTestUser(t.app);
    expect((await coinlog(other)).data).toEqual({ total: 0, list: [] });
  });

  it("guests get 401 on every member call", async () => {
    for (const [method, url] of [["POST", "/api/user/checkin"], ["POST", "/api/user/buyvip"], ["GET", "/api/user/coinlog"], ["GET", "/api/user/wallet"]] as const) {
      expect((await call(t.app, method, url, method === "POST" ? { body: {} } : {})).status).toBe(401);
    }
  });

  it("an admin grants and deducts with a reason, audited; never below 0", async () => {
    const u = await createTestUser(t.app, { coins: 5 });
    expect(await adjust(u.id, { amount: 20, reason: "  新人礼包 " })).toMatchObject({ status: 200, msg: m.adjustOk, data: { id: u.id, coins: 25 } });
    expect(await adjust(u.id, { amount: -25, reason: "退款" })).toMatchObject({ status: 200, data: { coins: 0 } });
    expectRefused(await adjust(u.id, { amount: -1, reason: "再扣" }), 400, belowZero(0));
    expectRefused(await adjust(u.id, { amount: 0, reason: "无" }), 400, m.badAmount);
    expectRefused(await adjust(u.id, { amount: 1.5, reason: "无" }), 400, m.badAmount);
    expectRefused(await adjust(u.id, { amount: 5, reason: "   " }), 400, m.reasonRequired);
    expectRefused(await adjust(u.id, { amount: 5, reason: "长".repeat(101) }), 400, m.reasonTooLong);
    expectRefused(await adjust(u.id, { amount: 5 }), 400, m.reasonRequired);
    expectRefused(await adjust(999_999, { amount: 5, reason: "无" }), 404, m.userMissing);
    const rich = await createTestUser(t.app, { coins: COINS_MAX - 1 });
    expectRefused(await adjust(rich.id, { amount: 2, reason: "太多" }), 400, aboveMax(COINS_MAX));
    expect(await adjust(rich.id, { amount: 1, reason: "正好" })).toMatchObject({ status: 200, data: { coins: COINS_MAX } });
    expect((await adjust(u.id, { amount: 5, reason: "无" }, editor.headers)).status).toBe(403);
    expect((await member(u.id)).coins).toBe(0);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "user.coins")).orderBy(asc(auditLog.id));
    const mine = audits.filter((a) => a.targetId === String(u.id));
    expect(mine.map((a) => [a.adminId, a.detail])).toEqual([
      [boss.id, { before: { coins: 5 }, after: { coins: 25 }, amount: 20, reason: "新人礼包" }],
      [boss.id, { before: { coins: 25 }, after: { coins: 0 }, amount: -25, reason: "退款" }],
    ]);
    const log = await coinlog(u);
    expect(log.data.list.slice(0, 2).map((r: any) => r.note)).toEqual(["管理员扣除：退款", "管理员发放：新人礼包"]);
    const grants = await queryRows<{ admin_id: number }>(t.database.db, sql`select admin_id from coin_ledger where user_id = ${u.id} and reason = 'admin_grant'`);
    expect(grants).toEqual([{ admin_id: boss.id }]);
  });
});
