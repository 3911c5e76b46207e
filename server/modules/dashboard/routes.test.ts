/**
 * The dashboard (ADR 0032) on both engines: who may read it, its counts at the China-day
 * edges, the 30-day series with searches counted through the real search route, and real
 * system facts.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardAnswer, DashboardSeriesAnswer } from "@contracts/dashboard-texts";
import { dailyCounters, downloads, items, loginRecords, users } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";
import { suiteRepo } from "../catalog/suite-repo.js";
import { playsRepo } from "../plays/repo.js";
import pkg from "../../../package.json" with { type: "json" };

/** 10:00 on 2026-06-15 in China. Today began 2026-06-14T16:00Z, yesterday 2026-06-13T16:00Z. */
const NOW = Date.parse("2026-06-15T02:00:00.000Z");
const TODAY_EDGE = new Date("2026-06-14T16:00:00.000Z");
const LAST_OF_YESTERDAY = new Date("2026-06-14T15:59:59.999Z");
const YESTERDAY_EDGE = new Date("2026-06-13T16:00:00.000Z");
const LAST_OF_DAY_BEFORE = new Date("2026-06-13T15:59:59.999Z");

describe.each(testEngines())("the admin dashboard on %s", (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let now = NOW;
  let todayId = 0;
  let superHeaders: { authorization: string };
  let editorHeaders: { authorization: string };
  let memberHeaders: { authorization: string };

  const dashboard = async (headers: Record<string, string> = superHeaders) => {
    const res = await app.inject({ url: "/api/pandaadmin/dashboard", headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as DashboardAnswer;
  };
  const series = async (query = "") => {
    const res = await app.inject({ url: `/api/pandaadmin/dashboard/series${query}`, headers: superHeaders });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as DashboardSeriesAnswer;
  };

  beforeAll(async () => {
    t = await createTestApp(engine, { clock: () => new Date(now) });
    app = t.app;
    const db = t.database.db;
    const admin = await createTestAdmin(db, { role: "super", username: "dash-boss" });
    superHeaders = admin.headers;
    editorHeaders = (await createTestAdmin(db, { role: "editor" })).headers;
    const member = await createTestUser(app);
    memberHeaders = member.headers;

    // Suites: mixes at the edges, one hidden long ago (still a suite), a single (not a suite).
    const writes = app.services.writes;
    const mix = (title: string, at: Date, extra: object = {}) =>
      writes.createItem({ kind: "mix", title, sourceSite: "local", playUrl: `/media/${title}.mp3`, ...extra }).then(async (id) => {
        await db.update(items).set({ createdAt: at }).where(eq(items.id, id)); // behind the write service's back: no writer may back-date a creation
        return id;
      });
    const today = await mix("today-edge", TODAY_EDGE);
    await mix("last-of-yesterday", LAST_OF_YESTERDAY);
    await mix("yesterday-edge", YESTERDAY_EDGE);
    await mix("day-before", LAST_OF_DAY_BEFORE);
    await mix("hidden-old", new Date("2025-01-01T00:00:00Z"), { status: "hidden" });
    const single = await writes.createItem({ kind: "single", title: "single-today", sourceSite: "local", playUrl: "/media/s.mp3" });
    await db.update(items).set({ createdAt: TODAY_EDGE }).where(eq(items.id, single)); // behind the write service's back (back-dated)

    // Users: the member above (created "really now", i.e. outside the window) plus four at the edges.
    const userAt = async (at: Date) => {
      const u = await createTestUser(app);
      await db.update(users).set({ createdAt: at }).where(eq(users.id, u.id));
      return u.id;
    };
    const u1 = await userAt(TODAY_EDGE);
    await userAt(new Date(NOW - 1000));
    await userAt(LAST_OF_YESTERDAY);
    await userAt(LAST_OF_DAY_BEFORE);
    await db.update(users).set({ createdAt: new Date("2024-01-01T00:00:00Z") }).where(eq(users.id, member.id));

    // Plays: 3 today, 2 yesterday, 1 the day before, recorded as the play report records them
    // (the event and the day's count in one transaction, ADR 0059); a re-sent playback counts once.
    todayId = today;
    let n = 0;
    const play = (at: Date) => ({ itemId: today, visitorId: "v", userId: null, playbackId: `dash-${engine}-${++n}`, playedAt: at, secondsListened: 60 });
    const plays = playsRepo(db);
    for (const at of [TODAY_EDGE, new Date(NOW - 60_000), new Date(NOW), LAST_OF_YESTERDAY, YESTERDAY_EDGE, LAST_OF_DAY_BEFORE]) {
      expect(await plays.insertOnce(play(at))).toBe(true);
    }
    expect(await plays.insertOnce({ ...play(new Date(NOW)), playbackId: `dash-${engine}-1` })).toBe(false);
    // Downloads: 1 today, 3 yesterday, 1 the day before.
    const dl = (at: Date) => ({ userId: u1, itemId: today, createdAt: at });
    await db.insert(downloads).values([dl(TODAY_EDGE), dl(LAST_OF_YESTERDAY), dl(YESTERDAY_EDGE), dl(new Date("2026-06-14T08:00:00Z")), dl(LAST_OF_DAY_BEFORE)]);

    // Logins: the admin's two (newest first on the dashboard) and a member's (never shown).
    await db.insert(loginRecords).values([
      { adminId: admin.id, ip: "203.0.113.7", location: "广东省深圳市", createdAt: new Date(NOW - 3_600_000) },
      { adminId: admin.id, ip: "198.51.100.2", location: "", success: false, createdAt: new Date(NOW - 60_000) },
      { userId: member.id, ip: "192.0.2.1", location: "北京市", createdAt: new Date(NOW - 1000) },
    ]);

    // Searches through the real route: three new searches count, a next page and a refused one do not.
    for (const query of ["keyword=today", "keyword=edge&type=mp3", "keyword=%E5%A4%9C%E6%9B%B2", "keyword=today&page=2"]) {
      const res = await app.inject({ url: `/api/forntend/indexsearch?${query}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await app.inject({ url: "/api/forntend/indexsearch?keyword=" })).statusCode).toBe(400);
    // Nothing written yet: the counts wait in the buffer.
    expect(await queryRows(db, sql`select * from daily_counters where name = 'search'`)).toEqual([]);
    await app.services.counters.flush();
    // Earlier days' counts, one inside the 30 days and one just before them.
    await db.insert(dailyCounters).values([
      { day: "2026-05-17", name: "search", count: 7 },
      { day: "2026-05-16", name: "search", count: 99 },
    ]);
    // A file of known size in DATA_DIR.
    await writeFile(path.join(t.dataDir, "dash-size-probe.bin"), Buffer.alloc(123_456));
  });

  afterAll(async () => {
    await t?.close();
  });

  it("answers admins of both roles, and 401 to guests and members", async () => {
    for (const url of ["/api/pandaadmin/dashboard", "/api/pandaadmin/dashboard/series"]) {
      expect((await app.inject({ url })).statusCode).toBe(401);
      expect((await app.inject({ url, headers: memberHeaders })).statusCode).toBe(401);
      expect((await app.inject({ url, headers: editorHeaders })).statusCode).toBe(200);
      expect((await app.inject({ url, headers: superHeaders })).statusCode).toBe(200);
    }
  });

  it("counts today and yesterday by China day, edges included", async () => {
    const d = await dashboard(editorHeaders);
    expect(d.day).toBe("2026-06-15");
    expect(d.stats).toEqual({
      suites: { value: 5, today: 1, yesterday: 2 },
      users: { value: 5, today: 2, yesterday: 1 },
      playsToday: { value: 3, today: 3, yesterday: 2 },
      downloadsToday: { value: 1, today: 1, yesterday: 3 },
    });
  });

  it("keeps the counts about 10 s, then reads them again", async () => {
    const before = (await dashboard()).stats.users.value;
    const extra = await createTestUser(app);
    await t.database.db.update(users).set({ createdAt: new Date(NOW) }).where(eq(users.id, extra.id));
    expect((await dashboard()).stats.users.value).toBe(before);
    now += 11_000;
    try {
      expect((await dashboard()).stats.users).toMatchObject({ value: before + 1, today: 3 });
    } finally {
      await t.database.db.delete(users).where(inArray(users.id, [extra.id]));
    }
  });

  it("lists the recent admin logins, newest first, without members' logins", async () => {
    const { logins } = await dashboard();
    expect(logins.map((l) => [l.admin, l.ip, l.location, l.success])).toEqual([
      ["dash-boss", "198.51.100.2", "", false],
      ["dash-boss", "203.0.113.7", "广东省深圳市", true],
    ]);
    expect(logins[0]!.createdAt).toBe(new Date(NOW - 60_000).toISOString());
  });

  it("tells the real system facts", async () => {
    const { system, sources } = await dashboard();
    expect(system.dbEngine).toBe(engine);
    expect(system.dbVersion).toMatch(/^PostgreSQL \d+/);
    expect(system.appVersion).toBe(pkg.version);
    expect(system.nodeVersion).toBe(process.version);
    expect(system.os).toContain(process.platform === "linux" ? "Linux" : "");
    expect(system.uptimeSec).toBeGreaterThanOrEqual(0);
    expect(system.dataDir).toBe(t.dataDir);
    expect(system.dataDirBytes).toBeGreaterThanOrEqual(123_456);
    expect(system.dataDirPartial).toBe(false);
    expect(sources).toEqual(app.services.sourceHealth.list());
  });

  it("lists this instance's caches with their counters, read live (ADR 0054)", async () => {
    await app.inject({ method: "GET", url: "/api/forntend/index" });
    await app.inject({ method: "GET", url: "/api/forntend/index" });
    const { caches } = await dashboard();
    expect(caches.map((c) => c.name)).toEqual(expect.arrayContaining(["home", "suites", "dashboard", "data-dir-size", "play-addresses", "pinyin"]));
    const home = caches.find((c) => c.name === "home")!;
    expect(home).toMatchObject({ entries: 1, hits: expect.any(Number), misses: expect.any(Number), drops: expect.any(Number) });
    expect(home.hits).toBeGreaterThanOrEqual(1);
    expect(home.bytes).toBeGreaterThan(0);
    expect(home.bytes).toBeLessThanOrEqual(home.maxBytes);
  });

  it("gives 30 China days of plays, sign-ups and searches, searches counted through the search route", async () => {
    const s = await series("?days=30");
    expect(s.days).toHaveLength(30);
    expect(s.days[0]).toBe("2026-05-17");
    expect(s.days.at(-1)).toBe("2026-06-15");
    const last3 = (xs: number[]) => xs.slice(-3);
    expect(s.days.slice(-3)).toEqual(["2026-06-13", "2026-06-14", "2026-06-15"]);
    expect(last3(s.plays)).toEqual([1, 2, 3]);
    expect(last3(s.signups)).toEqual([1, 1, 2]);
    expect(last3(s.searches)).toEqual([0, 0, 3]);
    expect(s.searches[0]).toBe(7);
    expect(s.searches.reduce((a, b) => a + b, 0)).toBe(10);
    expect(await series()).toEqual(s);
  });

  it("adds later batches to the day's count", async () => {
    app.services.counters.add("search");
    app.services.counters.add("search", 2);
    await app.services.counters.flush();
    const [row] = await queryRows<{ count: number }>(t.database.db, sql`select count::int as count from daily_counters where day = '2026-06-15' and name = 'search'`);
    expect(row!.count).toBe(6);
  });

  it("refuses a bad number of days with a Chinese message", async () => {
    for (const days of ["0", "91", "abc", "1.5", "-3"]) {
      const res = await app.inject({ url: `/api/pandaadmin/dashboard/series?days=${days}`, headers: superHeaders });
      expect(res.statusCode, days).toBe(400);
      expect(res.json()).toMatchObject({ code: 0, msg: "天数须为 1 到 90 的整数" });
    }
  });

  // Last: it deletes the suite the plays went to. Issue 25: today's plays fell 509 → 506 when
  // suites were deleted, because the count was read from the deleted suites' play events.
  it("keeps today's plays and views when the suite they went to is deleted (ADR 0059)", async () => {
    const db = t.database.db;
    // Views are added with their batch: to the item's deltas and to each day's history; a missing item adds nothing.
    await suiteRepo(db).addViewCounts([
      { itemId: todayId, day: "2026-06-15", views: 2 },
      { itemId: todayId, day: "2026-06-14", views: 1 },
      { itemId: 99_999_999, day: "2026-06-15", views: 5 },
    ]);
    const history = () =>
      queryRows<{ day: string; name: string; count: number }>(
        db,
        sql`select to_char(day, 'YYYY-MM-DD') as day, name, count::int as count from daily_counters where name in ('play', 'view') order by day, name`,
      );
    const before = await history();
    expect(before).toEqual([
      { day: "2026-06-13", name: "play", count: 1 },
      { day: "2026-06-14", name: "play", count: 2 },
      { day: "2026-06-14", name: "view", count: 1 },
      { day: "2026-06-15", name: "play", count: 3 },
      { day: "2026-06-15", name: "view", count: 2 },
    ]);
    now += 11_000; // past the dashboard's 10 s
    const cards = (await dashboard()).stats.playsToday;
    const chart = (await series("?days=3")).plays;
    expect(cards).toEqual({ value: 3, today: 3, yesterday: 2 });
    // The chart's views line reads the same history.
    const viewLine = (await series("?days=3")).views;
    expect(viewLine).toEqual([0, 1, 2]);

    // Deleted for good: into the recycle bin, then purged from it (ADR 0065).
    const res = await app.inject({ method: "DELETE", url: `/api/sutie/${todayId}`, headers: superHeaders });
    expect(res.statusCode, res.body).toBe(200);
    const purged = await app.inject({ method: "POST", url: "/api/sutie/purge", payload: { ids: [todayId] }, headers: superHeaders });
    expect(purged.statusCode, purged.body).toBe(200);
    expect(await queryRows(db, sql`select id from play_events where item_id = ${todayId}`)).toEqual([]); // the events went with it
    now += 11_000;
    expect((await dashboard()).stats.playsToday).toEqual(cards);
    expect((await series("?days=3")).plays).toEqual(chart);
    expect((await series("?days=3")).views).toEqual(viewLine);
    expect(await history()).toEqual(before);
  });
});
