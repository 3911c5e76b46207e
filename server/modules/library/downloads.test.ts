import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { libraryMessages as m, notEnoughCoins } from "@contracts/library";
import { adjustableClock, type AdjustableClock } from "../../lib/clock.js";
import type { TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser, type TestUser } from "../../testing/users.js";
import { call, expectRefused, itemIds, libraryTestApp, scalar } from "./test-fixtures.js";

const DAY = 86_400_000;
const LINK = "https://pan.example.cn/s/1AbCdEf";

/** Downloads: links only for who may have them; coins charged once per member and item; VIP by the server's clock. */
describe.each(testEngines())("downloads on %s", (engine) => {
  let t: TestApp;
  let clock: AdjustableClock;
  let priced: number;
  let free: number;
  let vip: number;
  let noLink: number;
  let single: number;

  const download = (user: TestUser, id: unknown) => call(t.app, "POST", "/api/user/download", { headers: user.headers, body: { id } });
  const coinsOf = (user: TestUser) => scalar(t, sql`select coins as n from users where id = ${user.id}`);
  const downloadCount = (id: number) => scalar(t, sql`select download_count as n from items where id = ${id}`);
  const rowsOf = (user: TestUser) => scalar(t, sql`select count(*)::int as n from downloads where user_id = ${user.id}`);

  beforeAll(async () => {
    clock = adjustableClock();
    t = await libraryTestApp(engine, { clock });
    const mixes = await itemIds(t, "mix");
    [priced, free, vip, noLink] = mixes;
    single = (await itemIds(t, "single"))[0];
    const w = t.app.services.writes;
    await w.updateItem(priced, { vipdown: "0", price: 12, weburl: LINK, webPassword: "8k2x" });
    await w.updateItem(free, { vipdown: "0", price: 0, weburl: `${LINK}free`, webPassword: "free" });
    await w.updateItem(vip, { vipdown: "1", price: 0, weburl: `${LINK}vip`, webPassword: "v1p0" });
    await w.updateItem(noLink, { vipdown: "0", price: 5, weburl: null, webPassword: null });
    await w.updateItem(single, { vipdown: "0", price: 3, weburl: `${LINK}single`, webPassword: "sg01" });
  });
  afterAll(() => t?.close());

  it("a priced suite costs its price once; the re-download is free and recorded too", async () => {
    const member = await createTestUser(t.app, { coins: 30 });
    const countBefore = await downloadCount(priced);
    const first = await download(member, priced);
    expect(first).toMatchObject({ status: 200, code: 1, msg: m.downloadOk, data: { weburl: LINK, password: "8k2x", coins: 18, charged: 12 } });
    const again = await download(member, priced);
    expect(again.data).toEqual({ weburl: LINK, password: "8k2x", coins: 18, charged: 0 });
    expect(await coinsOf(member)).toBe(18);
    expect(await downloadCount(priced)).toBe(countBefore + 2);
    const list = await call(t.app, "GET", "/api/user/downloads", { headers: member.headers });
    expect(list.data.total).toBe(2);
    expect(list.data.list.map((d: { coins_spent: number }) => d.coins_spent)).toEqual([0, 12]);
    expect(list.data.list[0]).toMatchObject({ b_id: priced, title: expect.any(String), createtime: expect.any(Number) });
    expect(Math.abs(list.data.list[0].createtime - Date.now() / 1000)).toBeLessThan(60);
    const state = await call(t.app, "GET", `/api/user/item-state?ids=${priced}`, { headers: member.headers });
    expect(state.data[0]).toMatchObject({ downloaded: true, purchased: true });
  });

  it("twenty simultaneous clicks deduct once", async () => {
    const member = await createTestUser(t.app, { coins: 100 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => download(member, priced)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.data.charged === 12)).toHaveLength(1);
    expect(await coinsOf(member)).toBe(88);
    expect(await rowsOf(member)).toBe(20);
    expect(await scalar(t, sql`select count(*)::int as n from download_purchases where user_id = ${member.id}`)).toBe(1);
  });

  it("too few coins: the clear message with price and balance, nothing charged or recorded; enough later works", async () => {
    const member = await createTestUser(t.app, { coins: 11 });
    const countBefore = await downloadCount(priced);
    expectRefused(await download(member, priced), 400, notEnoughCoins(12, 11));
    expect(notEnoughCoins(12, 11)).toBe("币不足，下载需要12币，当前余额11币");
    expect(await coinsOf(member)).toBe(11);
    expect(await rowsOf(member)).toBe(0);
    expect(await downloadCount(priced)).toBe(countBefore);
    // Twenty at once with too few coins: all refused, none charged.
    const storm = await Promise.all(Array.from({ length: 20 }, () => download(member, priced)));
    expect(storm.map((a) => a.msg)).toEqual(Array(20).fill(notEnoughCoins(12, 11)));
    // Singles can be priced too; paying for one does not pay for another.
    expect((await download(member, single)).data).toMatchObject({ coins: 8, charged: 3, password: "sg01" });
    expectRefused(await download(member, priced), 400, notEnoughCoins(12, 8));
  });

  it("a free suite costs nothing; a suite without a link says so", async () => {
    const member = await createTestUser(t.app, { coins: 0 });
    expect((await download(member, free)).data).toEqual({ weburl: `${LINK}free`, password: "free", coins: 0, charged: 0 });
    expectRefused(await download(member, noLink), 400, m.noDownloadLink);
    expect(await rowsOf(member)).toBe(1);
  });

  it("a VIP suite needs a membership that has not ended by the server's clock, every time", async () => {
    const never = await createTestUser(t.app, { coins: 500 });
    expectRefused(await download(never, vip), 400, m.vipOnly);
    const member = await createTestUser(t.app, { vipUntil: new Date(Date.now() + DAY) });
    expect((await download(member, vip)).data).toEqual({ weburl: `${LINK}vip`, password: "v1p0", coins: 0, charged: 0 });
    clock.advance(2 * DAY); // the membership has ended now
    try {
      expectRefused(await download(member, vip), 400, m.vipOnly);
      expect(await rowsOf(member)).toBe(1);
    } finally {
      clock.advance(-2 * DAY);
    }
    expect((await download(member, vip)).code).toBe(1);
    const expired = await createTestUser(t.app, { vipUntil: new Date(Date.now() - 1000) });
    expectRefused(await download(expired, vip), 400, m.vipOnly);
  });

  it("unknown or hidden items are 数据不存在; bad ids 400", async () => {
    const member = await createTestUser(t.app, { coins: 100 });
    expectRefused(await download(member, 99_999_999), 404, m.missing);
    const hidden = (await itemIds(t, "mix"))[6];
    await t.app.services.writes.setItemsStatus([hidden], "hidden");
    expectRefused(await download(member, hidden), 404, m.missing);
    for (const bad of ["12", -3, 0, 2.5, null, { id: 1 }]) expectRefused(await download(member, bad), 400, m.badId);
    expect(await coinsOf(member)).toBe(100);
  });

  it("the download list: newest first, paginated, the member's own only", async () => {
    const member = await createTestUser(t.app, { coins: 0 });
    for (let i = 0; i < 12; i++) await download(member, free);
    const list = (q = "") => call(t.app, "GET", `/api/user/downloads${q}`, { headers: member.headers });
    const page1 = await list();
    expect(page1.data.total).toBe(12);
    expect(page1.data.list).toHaveLength(10);
    expect(Object.keys(page1.data.list[0]).sort()).toEqual(["b_id", "coins_spent", "createtime", "id", "price", "title", "vipdown"]);
    const ids = page1.data.list.map((d: { id: number }) => d.id);
    expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);
    expect((await list("?page=2")).data.list).toHaveLength(2);
    expect((await list("?page=2&size=5")).data.list.map((d: { id: number }) => d.id)).toEqual(ids.slice(5, 10));
    expectRefused(await list("?size=100"), 400, m.badSize);
    expectRefused(await list("?page=-1"), 400, m.badPage);
    const other = await createTestUser(t.app);
    expect((await call(t.app, "GET", "/api/user/downloads", { headers: other.headers })).data).toEqual({ list: [], total: 0 });
  });

  it("any other failure is 下载失败，请稍后重试, and the coins taken in that transaction come back", async () => {
    const member = await createTestUser(t.app, { coins: 50 });
    // The download record cannot be written (its table is away): the purchase and the charge roll back with it.
    await t.database.db.execute(sql`alter table downloads rename to downloads_away`);
    try {
      expectRefused(await download(member, priced), 500, m.downloadFailed);
    } finally {
      await t.database.db.execute(sql`alter table downloads_away rename to downloads`);
    }
    expect(await coinsOf(member)).toBe(50);
    expect((await download(member, priced)).data).toMatchObject({ charged: 12, coins: 38 });
  });
});
