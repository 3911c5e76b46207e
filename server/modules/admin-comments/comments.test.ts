/**
 * The back office's comments (issue 12) on both engines: newest first, filtered by suite or
 * member, hidden, shown again and deleted with the item's comment counter kept right (it counts
 * visible comments, as the public list does), an audit row for each. Any enabled admin.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, comments, items } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser, type TestUser } from "../../testing/users.js";

describe.each(testEngines())("comments in the back office on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let editor: Awaited<ReturnType<typeof createTestAdmin>>;
  let alice: TestUser;
  let bob: TestUser;
  let suite: number;
  let other: number;
  const ids: Record<string, number> = {};

  const table = (query: Record<string, string> = {}, headers: Record<string, string> = editor.headers) => app.inject({ url: "/api/pandaadmin/comments/index", query, headers });
  const post = (path: "hide" | "delete", body: unknown, headers: Record<string, string> = editor.headers) =>
    app.inject({ method: "POST", url: `/api/pandaadmin/comments/${path}`, headers, payload: body as object });
  const rowIds = (res: Awaited<ReturnType<typeof table>>) => (res.json().rows as { id: number }[]).map((r) => r.id);
  const counter = async (id: number) => (await testApp.database.db.select({ n: items.commentCount }).from(items).where(eq(items.id, id)))[0]!.n;
  const publicCount = async (id: number) => (await app.inject({ url: "/api/forntend/comments", query: { id: String(id), page: "1" } })).json().data.total as number;
  const audits = async () => (await testApp.database.db.select().from(auditLog).where(eq(auditLog.targetType, "comment")).orderBy(asc(auditLog.id))).map((r) => ({ adminId: r.adminId, action: r.action, targetId: r.targetId, detail: r.detail as Record<string, any> }));

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
    editor = await createTestAdmin(testApp.database.db, { role: "editor" });
    alice = await createTestUser(app, { username: "alice_c", nickname: "爱丽丝" });
    bob = await createTestUser(app, { username: "bob_c" });
    const [cat] = await app.services.writes.createCategories([{ name: "DJ串烧", diyname: "chuanshao", modelId: 2 }]);
    [suite, other] = (await app.services.writes.createItems(
      ["夜店串烧一", "车载串烧二"].map((title) => ({ title, kind: "mix" as const, artist: "DJ小鱼", playtype: "mp3" as const, categoryId: cat!.id, status: "normal" as const, playUrl: "/media/x.mp3", sourceSite: "local" })),
    )) as [number, number];
    const say = async (who: TestUser, item: number, content: string) => (await app.services.library.postComment(who.id, item, content)).comment.id;
    ids.a1 = await say(alice, suite, "第一条：好听");
    ids.b1 = await say(bob, suite, "第二条：广告 加微信");
    ids.a2 = await say(alice, other, "第三条：收藏了");
    ids.b2 = await say(bob, suite, "第四条：再来一首");
    // A reply under b1: deleting b1 takes it too.
    const [reply] = await testApp.database.db.insert(comments).values({ itemId: suite, userId: alice.id, parentId: ids.b1, content: "回复：同感" }).returning({ id: comments.id });
    ids.reply = reply!.id;
    await app.services.writes.addToItemCounts(suite, { comments: 1 });
    // Known times, so "newest first" is certain.
    for (const [i, key] of ["a1", "b1", "a2", "b2", "reply"].entries()) {
      await testApp.database.db.execute(sql`update comments set created_at = now() - make_interval(mins => ${10 - i}) where id = ${ids[key]!}`);
    }
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("is for admins: guests and members 401, bad bodies 400 with a Chinese message and nothing changed", async () => {
    const member = await createTestUser(app);
    for (const headers of [{}, member.headers]) {
      expect((await table({}, headers)).statusCode).toBe(401);
      expect((await post("hide", { ids: [ids.a1!], hidden: true }, headers)).statusCode).toBe(401);
      expect((await post("delete", { ids: [ids.a1!] }, headers)).statusCode).toBe(401);
    }
    for (const [path, body, msg] of [
      ["hide", { ids: [], hidden: true }, "请选择要操作的评论"],
      ["hide", { ids: [ids.a1] }, "请选择要操作的评论"],
      ["delete", { ids: "1" }, "请选择要操作的评论"],
      ["delete", { ids: Array.from({ length: 101 }, (_, i) => i + 1) }, "一次最多操作 100 条"],
    ] as const) {
      const res = await post(path, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 0, msg });
    }
    expect(await counter(suite)).toBe(4);
    expect(await audits()).toEqual([]);
  });

  it("lists newest first as the bare {total, rows}; filters by suite or member; searches the text", async () => {
    const all = await table();
    expect(Object.keys(all.json()).sort()).toEqual(["rows", "total"]);
    expect(rowIds(all)).toEqual([ids.reply, ids.b2, ids.a2, ids.b1, ids.a1]);
    expect(all.json().rows[1]).toEqual({
      id: ids.b2,
      item_id: suite,
      item_title: "夜店串烧一",
      user_id: bob.id,
      username: "bob_c",
      nickname: "",
      parent_id: null,
      content: "第四条：再来一首",
      status: "normal",
      status_text: "正常",
      createtime: expect.any(Number),
    });
    expect(rowIds(await table({ filter: JSON.stringify({ item_id: String(other) }) }))).toEqual([ids.a2]);
    expect(rowIds(await table({ filter: JSON.stringify({ user_id: String(bob.id) }) }))).toEqual([ids.b2, ids.b1]);
    expect(rowIds(await table({ filter: JSON.stringify({ username: "alice" }), op: JSON.stringify({ username: "LIKE" }) }))).toEqual([ids.reply, ids.a2, ids.a1]);
    expect(rowIds(await table({ search: "广告" }))).toEqual([ids.b1]);
    expect((await table({ filter: JSON.stringify({ content: "x" }) })).statusCode).toBe(400);
  });

  it("hides and shows again: the counter and the public list follow; a repeat changes nothing", async () => {
    expect(await counter(suite)).toBe(4);
    const hidden = await post("hide", { ids: [ids.b2, ids.a2], hidden: true });
    expect(hidden.json()).toMatchObject({ code: 1, msg: "已隐藏", data: { ids: [ids.a2, ids.b2].sort((x, y) => x! - y!) } });
    expect(await counter(suite)).toBe(3);
    expect(await counter(other)).toBe(0);
    expect(await publicCount(suite)).toBe(3);
    expect((await post("hide", { ids: [ids.b2], hidden: true })).json().data.ids).toEqual([]);
    expect(await counter(suite)).toBe(3);
    expect(rowIds(await table({ filter: JSON.stringify({ status: "hidden" }) }))).toEqual([ids.b2, ids.a2]);

    const shown = await post("hide", { ids: [ids.a2], hidden: false });
    expect(shown.json()).toMatchObject({ msg: "已显示", data: { ids: [ids.a2] } });
    expect(await counter(other)).toBe(1);

    const rows = await audits();
    expect(rows.map((r) => [r.adminId, r.action, r.targetId, r.detail.before.status, r.detail.after.status])).toEqual([
      [editor.id, "comment.hide", String(ids.a2), "normal", "hidden"],
      [editor.id, "comment.hide", String(ids.b2), "normal", "hidden"],
      [editor.id, "comment.show", String(ids.a2), "hidden", "normal"],
    ]);
  });

  it("deletes with replies: the counter drops by the visible comments that went; unknown ids are ignored", async () => {
    // suite: a1, b1, reply visible (3), b2 hidden.
    const res = await post("delete", { ids: [ids.b1, ids.b2, 99_999_999] });
    expect(res.json()).toMatchObject({ code: 1, msg: "删除成功", data: { ids: [ids.b1, ids.b2] } });
    expect(await counter(suite)).toBe(1);
    expect(await publicCount(suite)).toBe(1);
    expect(rowIds(await table({ filter: JSON.stringify({ item_id: String(suite) }) }))).toEqual([ids.a1]);
    const rows = (await audits()).filter((r) => r.action === "comment.delete");
    expect(rows.map((r) => [r.targetId, r.detail.before.content, r.detail.after])).toEqual([
      [String(ids.b1), "第二条：广告 加微信", null],
      [String(ids.b2), "第四条：再来一首", null],
    ]);
  });
});
