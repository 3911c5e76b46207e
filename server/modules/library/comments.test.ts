import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { libraryMessages as m } from "@contracts/library";
import { adjustableClock, type AdjustableClock } from "../../lib/clock.js";
import type { TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser, type TestUser } from "../../testing/users.js";
import { call, expectRefused, itemIds, libraryTestApp, scalar } from "./test-fixtures.js";

/** Comments: members post (1-500 characters, 5 a minute), everyone reads newest first, text stays text. */
describe.each(testEngines())("comments on %s", (engine) => {
  let t: TestApp;
  let clock: AdjustableClock;
  let mixes: number[];

  const post = (user: TestUser, body: unknown) => call(t.app, "POST", "/api/user/comment", { headers: user.headers, body });
  const list = (id: number | string, page?: number | string) =>
    call(t.app, "GET", `/api/forntend/comments?id=${id}${page === undefined ? "" : `&page=${page}`}`);
  const commentCount = (id: number) => scalar(t, sql`select comment_count as n from items where id = ${id}`);
  /** Past the rate limit's window, so the next test starts afresh. */
  const nextMinute = () => clock.advance(61_000);

  beforeAll(async () => {
    clock = adjustableClock();
    t = await libraryTestApp(engine, { clock });
    mixes = await itemIds(t, "mix");
  });
  afterAll(() => t?.close());

  it("posts trimmed text, counts it, and everyone reads it newest first as the same text (HTML is not interpreted)", async () => {
    const id = mixes[0];
    const member = await createTestUser(t.app, { nickname: "夜店小王子" });
    const before = await commentCount(id);
    const script = "<script>alert(1)</script> & <b>x</b>";
    const first = await post(member, { id, content: "  好听！循环了一晚上  " });
    expect(first).toMatchObject({ status: 200, code: 1, msg: m.commentOk, data: { count: before + 1 } });
    expect(first.data.comment).toMatchObject({ content: "好听！循环了一晚上", user: { nickname: "夜店小王子", avatar: "/img/noimage.png" }, mine: true });
    const second = await post(member, { id, content: script });
    expect(second.data.comment.content).toBe(script);
    expect(await commentCount(id)).toBe(before + 2);

    const answer = await list(id);
    expect(answer.data.total).toBe(2);
    expect(answer.data.list.map((c: { content: string }) => c.content)).toEqual([script, "好听！循环了一晚上"]);
    expect(Object.keys(answer.data.list[0]).sort()).toEqual(["content", "createtime", "id", "user"]);
    // The JSON carries the characters themselves: escaping is the page's job (React renders text).
    const raw = await t.app.inject({ url: `/api/forntend/comments?id=${id}` });
    expect(raw.json().data.list[0].content).toBe(script);
    expect(raw.headers["content-type"]).toContain("application/json");
    nextMinute();
  });

  it("a member without a nickname shows as a half-hidden account name, never the login name", async () => {
    const member = await createTestUser(t.app, { username: "secretlogin42" });
    await post(member, { id: mixes[1], content: "顶" });
    const [shown] = (await list(mixes[1])).data.list;
    expect(shown.user.nickname).toBe("s***2");
    expect(JSON.stringify(shown)).not.toContain("secretlogin42");
    nextMinute();
  });

  it("refuses empty and over-long text with the clear messages; 500 characters (emoji count one) pass", async () => {
    const member = await createTestUser(t.app);
    const id = mixes[2];
    for (const content of ["", "   ", "\n\t"]) expectRefused(await post(member, { id, content }), 400, m.commentRequired);
    for (const content of [undefined, null, 42, ["a"]]) expectRefused(await post(member, { id, content }), 400, m.commentRequired);
    expectRefused(await post(member, { id, content: "长".repeat(501) }), 400, m.commentTooLong);
    expect((await post(member, { id, content: "😀".repeat(500) })).code).toBe(1);
    expect((await post(member, { id, content: ` ${"a".repeat(500)} ` })).code).toBe(1);
    for (const bad of ["1", 0, -5, 1.5, null]) expectRefused(await post(member, { id: bad, content: "好" }), 400, m.badId);
    expectRefused(await post(member, { id: 99_999_999, content: "好" }), 404, m.missing);
    nextMinute();
  });

  it("five comments a minute per member; the sixth is 评论过于频繁，请稍后再试 and is not stored", async () => {
    const member = await createTestUser(t.app);
    const other = await createTestUser(t.app);
    const id = mixes[3];
    for (let i = 1; i <= 5; i++) expect((await post(member, { id, content: `第${i}条` })).code).toBe(1);
    expectRefused(await post(member, { id, content: "第6条" }), 429, m.commentTooFast);
    expect((await post(other, { id, content: "别人不受影响" })).code).toBe(1);
    expect((await list(id)).data.total).toBe(6);
    nextMinute();
    expect((await post(member, { id, content: "一分钟后" })).code).toBe(1);
  });

  it("pages of ten, newest first; page and id validated; unknown and hidden items are 数据不存在", async () => {
    const id = mixes[4];
    const authors = await Promise.all([1, 2, 3].map(() => createTestUser(t.app)));
    for (let i = 0; i < 12; i++) await post(authors[i % 3], { id, content: `评论${i}` });
    const page1 = await list(id);
    expect(page1.data.total).toBe(12);
    expect(page1.data.list.map((c: { content: string }) => c.content)).toEqual(Array.from({ length: 10 }, (_, i) => `评论${11 - i}`));
    expect((await list(id, 2)).data.list.map((c: { content: string }) => c.content)).toEqual(["评论1", "评论0"]);
    expect((await list(id, 3)).data).toEqual({ list: [], total: 12 });
    for (const bad of ["abc", "0", "-1", "1.5", ""]) expectRefused(await list(bad), 400, m.badId);
    expectRefused(await call(t.app, "GET", "/api/forntend/comments"), 400, m.badId);
    for (const bad of ["0", "x", "10001"]) expectRefused(await list(id, bad), 400, m.badPage);
    expectRefused(await list(99_999_999), 404, m.missing);
    await t.app.services.writes.setItemsStatus([mixes[5]], "hidden");
    expectRefused(await list(mixes[5]), 404, m.missing);
    nextMinute();
  });

  it("a member deletes only their own comments; another member's id is 评论不存在 and changes nothing", async () => {
    const id = mixes[6];
    const [owner, intruder] = [await createTestUser(t.app), await createTestUser(t.app)];
    const { data } = await post(owner, { id, content: "我的评论" });
    const count = data.count;
    const del = (user: TestUser, commentId: unknown) => call(t.app, "POST", "/api/user/comment/delete", { headers: user.headers, body: { id: commentId } });
    expectRefused(await del(intruder, data.comment.id), 404, m.commentMissing);
    expect((await list(id)).data.total).toBe(1);
    expect(await commentCount(id)).toBe(count);
    expectRefused(await del(owner, "x"), 400, m.badId);
    expect(await del(owner, data.comment.id)).toMatchObject({ code: 1, msg: m.commentDeleted, data: { count: count - 1 } });
    expectRefused(await del(owner, data.comment.id), 404, m.commentMissing);
    expect((await list(id)).data.total).toBe(0);
  });

});
