/**
 * The back office's members (issue 12) on both engines: the table, edits under the account
 * fields' rules, disabling (the member is logged out on their very next request), their
 * downloads, and an audit row for every change. 超级管理员 only.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, users } from "../../db/schema/index.js";
import { queryRows } from "../../db/sql.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser, type TestUser } from "../../testing/users.js";

describe.each(testEngines())("users in the back office on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let boss: Awaited<ReturnType<typeof createTestAdmin>>;
  let editor: Awaited<ReturnType<typeof createTestAdmin>>;
  let alice: TestUser;
  let bob: TestUser;
  let itemIds: number[];

  const table = (query: Record<string, string> = {}, headers: Record<string, string> = boss.headers) => app.inject({ url: "/api/pandaadmin/users/index", query, headers });
  const edit = (id: number, body: unknown, headers: Record<string, string> = boss.headers) => app.inject({ method: "PATCH", url: `/api/pandaadmin/users/${id}`, headers, payload: body as object });
  const setStatus = (id: number, body: unknown, headers: Record<string, string> = boss.headers) =>
    app.inject({ method: "POST", url: `/api/pandaadmin/users/${id}/status`, headers, payload: body as object });
  const user = async (id: number) => (await testApp.database.db.select().from(users).where(eq(users.id, id)))[0]!;
  const audits = async () => (await testApp.database.db.select().from(auditLog).where(eq(auditLog.targetType, "user")).orderBy(asc(auditLog.id))).map((r) => ({ adminId: r.adminId, action: r.action, targetId: r.targetId, detail: r.detail as Record<string, any> }));

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
    const db = testApp.database.db;
    boss = await createTestAdmin(db, { role: "super" });
    editor = await createTestAdmin(db, { role: "editor" });
    alice = await createTestUser(app, { username: "alice_dj", nickname: "爱丽丝", coins: 5 });
    bob = await createTestUser(app, { username: "bob_dj", email: "bob@example.test" });
    const [cat] = await app.services.writes.createCategories([{ name: "DJ单曲", diyname: "danqu" }]);
    itemIds = await app.services.writes.createItems(
      ["夜曲(DJ Remix)", "江南(DJ Remix)"].map((title) => ({ title, kind: "single" as const, artist: "周杰伦", playtype: "mp3" as const, categoryId: cat!.id, status: "normal" as const, playUrl: "/media/x.mp3", sourceSite: "local" })),
    );
    await db.execute(sql`insert into downloads (user_id, item_id, coins_spent, created_at) values
      (${alice.id}, ${itemIds[0]}, 3, now() - interval '1 hour'), (${alice.id}, ${itemIds[1]}, 0, now())`);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("is for the 超级管理员 only: guests and members 401, editors 403", async () => {
    const member = await createTestUser(app);
    for (const headers of [{}, member.headers]) {
      expect((await table({}, headers)).statusCode).toBe(401);
      expect((await edit(alice.id, { coins: 1 }, headers)).statusCode).toBe(401);
      expect((await setStatus(alice.id, { status: 0 }, headers)).statusCode).toBe(401);
    }
    for (const res of [await table({}, editor.headers), await edit(alice.id, { coins: 1 }, editor.headers), await setStatus(alice.id, { status: 0 }, editor.headers)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 0, msg: "需要超级管理员权限" });
    }
    expect((await app.inject({ url: `/api/pandaadmin/users/${alice.id}/downloads`, headers: editor.headers })).statusCode).toBe(403);
    expect(await user(alice.id)).toMatchObject({ coins: 5, status: 1 });
    expect(await audits()).toEqual([]);
  });

  it("lists the table: bare {total, rows}, searched, filtered, with download counts", async () => {
    const all = await table({ sort: "id", order: "asc" });
    expect(all.statusCode).toBe(200);
    expect(Object.keys(all.json()).sort()).toEqual(["rows", "total"]);
    const alices = all.json().rows.find((r: { id: number }) => r.id === alice.id);
    expect(alices).toEqual({
      id: alice.id,
      username: "alice_dj",
      email: alice.email,
      nickname: "爱丽丝",
      coins: 5,
      vip_until: null,
      status: 1,
      status_text: "正常",
      createtime: expect.any(Number),
      downloads: 2,
    });
    expect(JSON.stringify(all.json())).not.toContain("password");
    const searched = await table({ search: "BOB" });
    expect(searched.json()).toMatchObject({ total: 1, rows: [{ id: bob.id }] });
    expect((await table({ search: "爱丽" })).json().rows.map((r: { id: number }) => r.id)).toEqual([alice.id]);
    expect((await table({ filter: JSON.stringify({ status: "0" }) })).json().total).toBe(0);
    expect((await table({ sort: "password_hash" })).statusCode).toBe(400);
  });

  it("edits nickname, email, coins and VIP under the account fields' rules; refusals change nothing", async () => {
    for (const [body, msg] of [
      [{ nickname: "a" }, "长度在 2 到 20 个字符"],
      [{ email: "not-an-email" }, "请输入正确的邮箱格式"],
      [{ email: "" }, "请输入邮箱"],
      [{ coins: -1 }, "金币须为 0 到 100000000 之间的整数"],
      [{ coins: 1.5 }, "金币须为 0 到 100000000 之间的整数"],
      [{ vipUntil: "tomorrow" }, "VIP 到期时间无效"],
      [{ vipUntil: 4_000_000_000 }, "VIP 到期时间无效"],
      [{}, "没有要修改的内容"],
      [{ nickname: "bob_dj" }, "昵称已被使用"],
      [{ email: "BOB@example.test" }, "该邮箱已被使用"],
    ] as const) {
      const res = await edit(alice.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, JSON.stringify(body)).toBeLessThan(500);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 0, msg });
    }
    expect((await edit(alice.id, { passwordHash: "x" })).statusCode).toBe(400);
    expect((await edit(99_999_999, { coins: 1 })).statusCode).toBe(404);
    expect(await user(alice.id)).toMatchObject({ nickname: "爱丽丝", coins: 5, vipUntil: null });
    expect(await audits()).toEqual([]);

    const vipUntil = Math.floor(Date.UTC(2027, 0, 1) / 1000);
    const res = await edit(alice.id, { nickname: " 爱丽丝DJ ", email: "alice.new@example.test", coins: 120, vipUntil });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 1, msg: "保存成功", data: { id: alice.id, nickname: "爱丽丝DJ", email: "alice.new@example.test", coins: 120, vip_until: vipUntil, downloads: 2 } });
    expect(await user(alice.id)).toMatchObject({ nickname: "爱丽丝DJ", email: "alice.new@example.test", coins: 120, vipUntil: new Date(vipUntil * 1000) });
    // The member sees it on their next request.
    expect((await app.inject({ url: "/api/user/isloging", headers: alice.headers })).json().data).toMatchObject({ coins: 120, nickname: "爱丽丝DJ" });

    expect((await edit(alice.id, { vipUntil: null })).json().data.vip_until).toBeNull();
    const rows = await audits();
    expect(rows.map((r) => [r.adminId, r.action, r.targetId])).toEqual([
      [boss.id, "user.update", String(alice.id)],
      [boss.id, "user.update", String(alice.id)],
    ]);
    expect(rows[0]!.detail.before).toMatchObject({ nickname: "爱丽丝", email: alice.email, coins: 5, vipUntil: null, status: 1 });
    expect(rows[0]!.detail.after).toMatchObject({ nickname: "爱丽丝DJ", coins: 120, vipUntil });
    expect(JSON.stringify(rows)).not.toContain("password");
  });

  it("disabling logs the member out at once (their next request is refused, the session is gone); enabling lets them sign in again", async () => {
    expect((await app.inject({ url: "/api/user/isloging", headers: bob.headers })).statusCode).toBe(200);
    expect((await setStatus(bob.id, { status: 2 })).json()).toMatchObject({ code: 0, msg: "状态只能是 0 (禁用) 或 1 (正常)" });
    expect((await setStatus(bob.id, { status: "0" })).statusCode).toBe(400);
    expect((await user(bob.id)).status).toBe(1);

    const off = await setStatus(bob.id, { status: 0 });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ code: 1, msg: "已禁用，该用户已被强制下线", data: { status: 0, status_text: "禁用" } });
    const next = await app.inject({ url: "/api/user/isloging", headers: bob.headers });
    expect(next.statusCode).toBe(401);
    const [{ n }] = (await queryRows<{ n: number }>(testApp.database.db, sql`select count(*)::int as n from sessions where user_id = ${bob.id}`)) as [{ n: number }];
    expect(n).toBe(0);
    expect((await table({ filter: JSON.stringify({ status: "0" }) })).json().rows.map((r: { id: number }) => r.id)).toEqual([bob.id]);

    const on = await setStatus(bob.id, { status: 1 });
    expect(on.json()).toMatchObject({ msg: "已启用", data: { status: 1 } });
    // The old token stays dead: they sign in again.
    expect((await app.inject({ url: "/api/user/isloging", headers: bob.headers })).statusCode).toBe(401);
    const login = await app.services.sessions.createUserSession(bob.id);
    expect((await app.inject({ url: "/api/user/isloging", headers: { authorization: `Bearer ${login}` } })).statusCode).toBe(200);

    const rows = (await audits()).filter((r) => r.targetId === String(bob.id));
    expect(rows.map((r) => [r.action, r.detail.before.status, r.detail.after.status])).toEqual([
      ["user.disable", 1, 0],
      ["user.enable", 0, 1],
    ]);
  });

  it("lists a member's downloads, newest first; an unknown member is 404", async () => {
    const res = await app.inject({ url: `/api/pandaadmin/users/${alice.id}/downloads`, query: { sort: "createtime" }, headers: boss.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      total: 2,
      rows: [
        { id: expect.any(Number), item_id: itemIds[1], title: "江南(DJ Remix)", coins: 0, createtime: expect.any(Number) },
        { id: expect.any(Number), item_id: itemIds[0], title: "夜曲(DJ Remix)", coins: 3, createtime: expect.any(Number) },
      ],
    });
    expect((await app.inject({ url: `/api/pandaadmin/users/${bob.id}/downloads`, headers: boss.headers })).json()).toEqual({ total: 0, rows: [] });
    const missing = await app.inject({ url: "/api/pandaadmin/users/99999999/downloads", headers: boss.headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 0, msg: "用户不存在" });
  });
});
