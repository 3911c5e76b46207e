import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { sessionService } from "../accounts/session-service.js";
import { chartFixtures } from "../charts/test-fixtures.js";
import { chartsService } from "../charts/service.js";

const PLAY = "/api/forntend/play";
let seq = 0;
/** A fresh visitor cookie and playback id for each report, unless a test wants them shared. */
const visitor = () => `vid=visitor-${process.pid}-${++seq}-abcdefgh`;
const playback = () => `pb-${process.pid}-${++seq}-0123456789`;

describe.each(testEngines())("POST /api/forntend/play on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let mix: number;
  let hidden: number;

  const report = (body: unknown, headers: Record<string, string> = { cookie: visitor() }) =>
    app.inject({ method: "POST", url: PLAY, payload: body as object, headers });
  const playsOf = async (itemId: number) =>
    (
      await queryRows<{ n: number }>(testApp.database.db, sql`select count(*)::int as n from play_events where item_id = ${itemId}`)
    )[0].n;

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
    const fx = chartFixtures(testApp.database.db);
    mix = await fx.item("local", "mix", "上报测试串烧");
    hidden = await fx.item("local", "mix", "隐藏串烧", { status: "hidden" });
  });
  afterAll(() => testApp?.close());

  it("records a qualified play once per playback id, however often it is sent", async () => {
    const body = { itemId: mix, playbackId: playback(), secondsListened: 31 };
    const headers = { cookie: visitor() };
    const first = await report(body, headers);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ code: 1, data: { recorded: true } });
    for (let i = 0; i < 3; i++) {
      const again = await report(body, headers);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ code: 1, data: { recorded: false } });
    }
    expect(await playsOf(mix)).toBe(1);
  });

  it("gives a new visitor its vid cookie and links a signed-in member's play to the account", async () => {
    const res = await app.inject({ method: "POST", url: PLAY, payload: { itemId: mix, playbackId: playback(), secondsListened: 45 } });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers["set-cookie"])).toMatch(/^vid=[A-Za-z0-9_-]{16,}/);

    const [user] = await testApp.database.db
      .insert(users)
      .values({ username: "听歌小李", email: "li@example.cn", passwordHash: "x" })
      .returning();
    const token = await sessionService(testApp.database.db).createUserSession(user.id);
    const id = playback();
    const member = await report({ itemId: mix, playbackId: id, secondsListened: 60 }, { cookie: visitor(), authorization: `Bearer ${token}` });
    expect(member.json()).toMatchObject({ code: 1, data: { recorded: true } });
    const [row] = await queryRows<{ user_id: number; seconds_listened: number }>(
      testApp.database.db,
      sql`select user_id, seconds_listened from play_events where playback_id = ${id}`,
    );
    expect(row).toEqual({ user_id: user.id, seconds_listened: 60 });
    // A stale token does not lose the play, only the account link.
    const stale = await report({ itemId: mix, playbackId: playback(), secondsListened: 30 }, { cookie: visitor(), authorization: "Bearer nope" });
    expect(stale.json()).toMatchObject({ code: 1, data: { recorded: true } });
  });

  it("refuses a second new playback from the same visitor within 30 seconds (429), changing nothing", async () => {
    const headers = { cookie: visitor() };
    expect((await report({ itemId: mix, playbackId: playback(), secondsListened: 30 }, headers)).statusCode).toBe(200);
    const before = await playsOf(mix);
    const res = await report({ itemId: mix, playbackId: playback(), secondsListened: 30 }, headers);
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
      [{ ...ok, itemId: 99_999_999 }, 404, "数据不存在"],
      [{ ...ok, itemId: hidden }, 404, "数据不存在"],
    ];
    for (const [body, status, msg] of cases) {
      const res = await report(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 0, msg });
    }
    const notJson = await app.inject({ method: "POST", url: PLAY, payload: "itemId=1", headers: { "content-type": "text/plain" } });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe(0);
    expect(await playsOf(mix)).toBe(before);
  });

  it("feeds the charts: the local site's chart counts the recorded plays", async () => {
    await chartsService(testApp.database.db).rebuildCharts(new Date(Date.now() + 60_000));
    const res = await app.inject({ url: "/api/forntend/getrank?site=local&type=mix&period=day" });
    expect(res.json().data.list).toEqual([expect.objectContaining({ id: mix, plays: await playsOf(mix) })]);
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await app.inject({ url: "/api/docs/json" })).json();
    expect(Object.keys(doc.paths[PLAY].post.requestBody.content["application/json"].schema.properties).sort()).toEqual([
      "itemId",
      "playbackId",
      "secondsListened",
    ]);
  });
});
