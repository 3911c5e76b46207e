import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { RATE_LIMITS } from "../../http/rate-limits.js";
import { adjustableClock } from "../../lib/clock.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { testVisitor } from "../../testing/visitors.js";
import { sessionService } from "../accounts/session-service.js";
import { chartFixtures } from "../charts/test-fixtures.js";
import { chartsService } from "../charts/service.js";

const PLAY = "/api/forntend/play";
const START = "/api/forntend/play/start";
let seq = 0;
const playback = () => `pb-${process.pid}-${++seq}-0123456789`;
/** Each test's requests come from their own address, so per-IP limits only meet the test about them. */
const nextIp = () => `10.0.${Math.floor(++seq / 250)}.${seq % 250}`;

describe.each(testEngines())("play reports on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let mix: number;
  let other: number;
  let hidden: number;
  const clock = adjustableClock();

  /** A returning visitor (signed cookie) on an address of its own. */
  const visitor = () => {
    const v = testVisitor(app, `visitor-${++seq}`);
    const headers: Record<string, string> = { cookie: v.cookie };
    return { ...v, headers, ip: nextIp() };
  };
  type Who = { headers: Record<string, string>; ip: string };
  const post = (url: string, body: unknown, who: Who) =>
    app.inject({ method: "POST", url, payload: body as object, headers: who.headers, remoteAddress: who.ip });
  const start = (itemId: number, playbackId: string, who: Who) => post(START, { itemId, playbackId }, who);
  const report = (body: unknown, who: Who) => post(PLAY, body, who);
  /** Starts a playback, lets `after` ms pass on the server's clock, then reports it. */
  const listen = async (itemId: number, who: Who, { after = 31_000, seconds = 30 } = {}) => {
    const playbackId = playback();
    expect((await start(itemId, playbackId, who)).statusCode).toBe(200);
    clock.advance(after);
    return { playbackId, res: await report({ itemId, playbackId, secondsListened: seconds }, who) };
  };
  const playsOf = async (itemId: number) =>
    (
      await queryRows<{ n: number }>(testApp.database.db, sql`select count(*)::int as n from play_events where item_id = ${itemId}`)
    )[0].n;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { clock });
    app = testApp.app;
    const fx = chartFixtures(testApp.database.db);
    mix = await fx.item("local", "mix", "上报测试串烧");
    other = await fx.item("local", "mix", "另一首串烧");
    hidden = await fx.item("local", "mix", "隐藏串烧", { status: "hidden" });
  });
  afterAll(() => testApp?.close());

  it("records a qualified play 30 s after its start, once per playback id however often it is sent", async () => {
    const who = visitor();
    const { playbackId, res } = await listen(mix, who, { seconds: 31 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 1, data: { recorded: true } });
    for (let i = 0; i < 3; i++) {
      const again = await report({ itemId: mix, playbackId, secondsListened: 31 }, who);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ code: 1, data: { recorded: false } });
    }
    expect(await playsOf(mix)).toBe(1);
  });

  it("keeps the first start of a playback: sending it again says how long ago that was", async () => {
    const who = visitor();
    const id = playback();
    expect((await start(mix, id, who)).json()).toMatchObject({ code: 1, data: { startedSecondsAgo: 0 } });
    clock.advance(12_000);
    expect((await start(mix, id, who)).json()).toMatchObject({ code: 1, data: { startedSecondsAgo: 12 } });
    // The same id from another visitor, or for another item, is not this playback.
    for (const [itemId, by] of [[mix, visitor()], [other, who]] as const) {
      const res = await start(itemId, id, by);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 0, msg: "播放编号不正确" });
    }
    expect((await start(hidden, playback(), who)).json()).toMatchObject({ code: 0, msg: "数据不存在" });
  });

  it("refuses a report the server did not see start 30 s earlier from the same visitor, recording nothing", async () => {
    const before = await playsOf(mix);
    const who = visitor();
    // Never started.
    const unseen = await report({ itemId: mix, playbackId: playback(), secondsListened: 30 }, who);
    expect(unseen.statusCode).toBe(400);
    expect(unseen.json()).toMatchObject({ code: 0, msg: "未记录到播放开始，不计入播放" });
    // Started 29 s ago.
    const early = await listen(mix, who, { after: 29_000 });
    expect(early.res.statusCode).toBe(400);
    expect(early.res.json()).toMatchObject({ code: 0, msg: "收听不足30秒，不计入播放" });
    // Claims more listening than the time since the start (a day, at once).
    const day = await listen(mix, who, { after: 31_000, seconds: 86_400 });
    expect(day.res.statusCode).toBe(400);
    expect(day.res.json()).toMatchObject({ code: 0, msg: "收听时长不正确" });
    // Started by someone else, or for another item.
    const theirs = playback();
    await start(mix, theirs, visitor());
    clock.advance(31_000);
    expect((await report({ itemId: mix, playbackId: theirs, secondsListened: 30 }, who)).json().msg).toBe("未记录到播放开始，不计入播放");
    const mine = playback();
    await start(other, mine, who);
    clock.advance(31_000);
    expect((await report({ itemId: mix, playbackId: mine, secondsListened: 30 }, who)).json().msg).toBe("未记录到播放开始，不计入播放");
    expect(await playsOf(mix)).toBe(before);
    // Within the slack the claim stands: 35 s listened, 31 s after the start.
    expect((await listen(mix, visitor(), { after: 31_000, seconds: 35 })).res.json()).toMatchObject({ data: { recorded: true } });
  });

  it("issues visitor ids itself: a new visitor gets a signed cookie, a forged one counts as none", async () => {
    const ip = nextIp();
    const id = playback();
    const fresh = await start(mix, id, { headers: {}, ip });
    const cookie = String(fresh.headers["set-cookie"]).split(";")[0];
    expect(cookie).toMatch(/^vid=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/);
    clock.advance(31_000);
    // The cookie's id with a signature of the client's choosing, or no signature: not the visitor.
    const [, value] = cookie.split("=");
    const [vid] = value.split(".");
    for (const forged of [`vid=${vid}`, `vid=${vid}.${"A".repeat(22)}`, `vid=${value}x`]) {
      const res = await report({ itemId: mix, playbackId: id, secondsListened: 30 }, { headers: { cookie: forged }, ip });
      expect(res.statusCode, forged).toBe(400);
      expect(res.json().msg).toBe("未记录到播放开始，不计入播放");
      expect(String(res.headers["set-cookie"]), forged).toMatch(/^vid=/); // treated as a new visitor
    }
    const res = await report({ itemId: mix, playbackId: id, secondsListened: 30 }, { headers: { cookie }, ip });
    expect(res.json()).toMatchObject({ code: 1, data: { recorded: true } });
    const [row] = await queryRows<{ visitor_id: string }>(testApp.database.db, sql`select visitor_id from play_events where playback_id = ${id}`);
    expect(row.visitor_id).toBe(vid);
  });

  it("links a signed-in member's play to the account; a stale token only loses the link", async () => {
    const [user] = await testApp.database.db
      .insert(users)
      .values({ username: "听歌小李", email: "li@example.cn", passwordHash: "x" })
      .returning();
    const token = await sessionService(testApp.database.db).createUserSession(user.id);
    const member = visitor();
    member.headers = { ...member.headers, authorization: `Bearer ${token}` };
    const { playbackId, res } = await listen(mix, member, { after: 61_000, seconds: 60 });
    expect(res.json()).toMatchObject({ code: 1, data: { recorded: true } });
    const [row] = await queryRows<{ user_id: number; seconds_listened: number }>(
      testApp.database.db,
      sql`select user_id, seconds_listened from play_events where playback_id = ${playbackId}`,
    );
    expect(row).toEqual({ user_id: user.id, seconds_listened: 60 });
    const stale = visitor();
    stale.headers = { ...stale.headers, authorization: "Bearer nope" };
    expect((await listen(mix, stale)).res.json()).toMatchObject({ code: 1, data: { recorded: true } });
  });

  it("refuses a second new playback from the same visitor within 30 seconds (429), changing nothing", async () => {
    const who = visitor();
    const [a, b] = [playback(), playback()];
    await start(mix, a, who);
    await start(mix, b, who);
    clock.advance(31_000);
    expect((await report({ itemId: mix, playbackId: a, secondsListened: 30 }, who)).statusCode).toBe(200);
    const before = await playsOf(mix);
    const res = await report({ itemId: mix, playbackId: b, secondsListened: 30 }, who);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 0, msg: "播放上报过于频繁，请稍后再试" });
    expect(await playsOf(mix)).toBe(before);
  });

  it("answers 4xx with a Chinese message for bad input, never a 500, and records nothing", async () => {
    const before = await playsOf(mix);
    const ok = { itemId: mix, playbackId: playback(), secondsListened: 30 };
    const cases: [unknown, number, string][] = [
      [{ ...ok, secondsListened: 29 }, 400, "收听不足30秒，不计入播放"],
      [{ ...ok, secondsListened: 86_401 }, 400, "收听时长不正确"],
      [{ ...ok, secondsListened: 30.5 }, 400, "收听时长不正确"],
      [{ ...ok, secondsListened: "30" }, 400, "收听时长不正确"],
      [{ ...ok, itemId: 0 }, 400, "歌曲编号不正确"],
      [{ ...ok, itemId: "1 or 1=1" }, 400, "歌曲编号不正确"],
      [{ ...ok, itemId: 99_999_999_999 }, 400, "歌曲编号不正确"],
      [{ ...ok, playbackId: "short" }, 400, "播放编号不正确"],
      [{ ...ok, playbackId: "x'; drop table play_events;--" }, 400, "播放编号不正确"],
      [{ itemId: mix }, 400, "播放编号不正确"],
    ];
    for (const [body, status, msg] of cases) {
      const res = await report(body, visitor());
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 0, msg });
    }
    for (const [itemId, msg] of [[99_999_999, "数据不存在"], [hidden, "数据不存在"], [0, "歌曲编号不正确"]] as const) {
      const res = await start(itemId, playback(), visitor());
      expect(res.statusCode).toBe(msg === "数据不存在" ? 404 : 400);
      expect(res.json()).toMatchObject({ code: 0, msg });
    }
    const notJson = await app.inject({ method: "POST", url: PLAY, payload: "itemId=1", headers: { "content-type": "text/plain" } });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe(0);
    expect(await playsOf(mix)).toBe(before);
  });

  it("limits starts and reports per IP: past the limit 429 请求过于频繁，请稍后再试", async () => {
    for (const [url, limit] of [[START, RATE_LIMITS.playStart.max], [PLAY, RATE_LIMITS.playReport.max]] as const) {
      const ip = nextIp();
      const who = { ...visitor(), ip };
      const send = () => post(url, { itemId: mix, playbackId: playback(), secondsListened: 30 }, who);
      for (let i = 0; i < limit; i++) expect((await send()).statusCode, `${url} #${i + 1}`).not.toBe(429);
      const over = await send();
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ code: 0, msg: "请求过于频繁，请稍后再试" });
      expect(over.headers["retry-after"]).toBeDefined();
      expect(over.headers["x-content-type-options"]).toBe("nosniff");
      // Another address is not affected.
      expect((await post(url, { itemId: mix, playbackId: playback(), secondsListened: 30 }, visitor())).statusCode).not.toBe(429);
    }
  });

  it("feeds the charts: the local site's chart counts the recorded plays", async () => {
    await chartsService(testApp.database.db).rebuildCharts(new Date(clock().getTime() + 60_000));
    const res = await app.inject({ url: "/api/forntend/getrank?site=local&type=mix&period=day" });
    expect(res.json().data.list).toEqual([expect.objectContaining({ id: mix, plays: await playsOf(mix) })]);
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await app.inject({ url: "/api/docs/json" })).json();
    const body = (path: string) => Object.keys(doc.paths[path].post.requestBody.content["application/json"].schema.properties).sort();
    expect(body(PLAY)).toEqual(["itemId", "playbackId", "secondsListened"]);
    expect(body(START)).toEqual(["itemId", "playbackId"]);
  });
});
