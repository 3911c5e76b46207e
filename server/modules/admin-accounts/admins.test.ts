import { and, desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admins, auditLog, sessions } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";
import { verifyPassword } from "../accounts/passwords.js";
import { adminWithPassword } from "./test-fixtures.js";

type Headers = { authorization: string };

describe.each(testEngines())("admins management and own password on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let boss: Awaited<ReturnType<typeof adminWithPassword>>;

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
    boss = await adminWithPassword(testApp.database.db, { role: "super", password: "boss-pass-1" });
  });
  afterAll(() => testApp?.close());

  const db = () => testApp.database.db;
  const call = (method: "GET" | "POST" | "PATCH", url: string, headers: Headers | Record<string, never>, payload?: object) =>
    app.inject({ method, url, headers, payload });
  const row = async (id: number) => (await db().select().from(admins).where(eq(admins.id, id)))[0]!;
  const lastAudit = async (action: string, targetId: number) =>
    (await db().select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId)))).orderBy(desc(auditLog.id)))[0];
  const auditCount = async () => (await db().select().from(auditLog)).length;
  const live = (token: string) => app.inject({ url: "/api/pandaadmin/check", headers: { authorization: `Bearer ${token}` } });

  it("guests and members get 401, editors 403 需要超级管理员权限 on every admins call and the audit trail", async () => {
    const member = await createTestUser(app);
    const editor = await createTestAdmin(db(), { role: "editor" });
    const calls: [string, string][] = [
      ["GET", "/api/pandaadmin/admins/index"],
      ["POST", "/api/pandaadmin/admins"],
      ["PATCH", `/api/pandaadmin/admins/${boss.id}`],
      ["POST", `/api/pandaadmin/admins/${boss.id}/status`],
      ["POST", `/api/pandaadmin/admins/${boss.id}/password`],
      ["GET", "/api/pandaadmin/audit/index"],
    ];
    for (const [method, url] of calls) {
      const payload = method === "GET" ? undefined : { status: 0, password: "new-pass-1", nickname: "改名", role: "editor", username: "someone", };
      expect((await call(method as "GET", url, {}, payload)).statusCode, url).toBe(401);
      expect((await call(method as "GET", url, { authorization: `Bearer ${member.token}` }, payload)).statusCode, url).toBe(401);
      const asEditor = await call(method as "GET", url, editor.headers, payload);
      expect(asEditor.statusCode, url).toBe(403);
      expect(asEditor.json().msg).toBe("需要超级管理员权限");
    }
    expect((await row(boss.id)).status).toBe(1);
    // The own password is any admin's call; a guest is refused.
    expect((await call("POST", "/api/pandaadmin/password", {}, { oldPassword: "x", password: "abcdef", confirm: "abcdef" })).statusCode).toBe(401);
  });

  it("creates an admin (audited, no hash in the row), who can log in; a taken name (any case) is 409", async () => {
    const before = await auditCount();
    const res = await call("POST", "/api/pandaadmin/admins", boss.headers, { username: "editor_li", password: "li-pass-1", nickname: "小李", role: "editor" });
    expect(res.statusCode).toBe(200);
    const created = res.json().data;
    expect(res.json()).toMatchObject({ code: 1, msg: "添加成功", data: { username: "editor_li", nickname: "小李", role: "editor", role_text: "编辑", status: 1, status_text: "正常", last_login: null } });
    expect(await verifyPassword((await row(created.id)).passwordHash, "li-pass-1")).toBe(true);
    const audit = await lastAudit("admin.create", created.id);
    expect(audit).toMatchObject({ adminId: boss.id, targetType: "admin", ip: "127.0.0.1" });
    expect(audit!.detail).toMatchObject({ before: null, after: { id: created.id, username: "editor_li", role: "editor", status: 1 } });
    expect(JSON.stringify(audit!.detail)).not.toMatch(/hash|li-pass/iu);
    const login = await app.inject({ method: "POST", url: "/api/pandaadmin/login", payload: { username: "EDITOR_LI", password: "li-pass-1" }, remoteAddress: "10.88.0.1" });
    expect(login.json()).toMatchObject({ code: 1, data: { admin: { role: "editor" } } });

    const taken = await call("POST", "/api/pandaadmin/admins", boss.headers, { username: "Editor_Li", password: "other-pass", nickname: "重名", role: "super" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 0, msg: "管理员账号已存在" });
    expect(await auditCount()).toBe(before + 1);
  });

  it("bad input is 400 with the contract's message and changes nothing", async () => {
    const before = await auditCount();
    const cases: [object, string][] = [
      // The form labels the field 账号 (issue 25): its messages say 账号 too.
      [{ password: "abcdef", nickname: "小王", role: "editor" }, "请输入账号"],
      [{ username: "  ", password: "abcdef", nickname: "小王", role: "editor" }, "请输入账号"],
      [{ username: "ab", password: "abcdef", nickname: "小王", role: "editor" }, "账号长度在 3 到 20 个字符"],
      [{ username: "a b c", password: "abcdef", nickname: "小王", role: "editor" }, "账号只能包含中文、字母、数字、下划线和横线"],
      [{ username: "wang_1", password: "abc", nickname: "小王", role: "editor" }, "密码长度必须在6-30个字符之间"],
      [{ username: "wang_1", password: "abcdef", nickname: "王", role: "editor" }, "长度在 2 到 20 个字符"],
      [{ username: "wang_1", password: "abcdef", nickname: "小王", role: "root" }, "请选择角色"],
    ];
    for (const [payload, msg] of cases) {
      const res = await call("POST", "/api/pandaadmin/admins", boss.headers, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 0, msg });
    }
    expect((await call("PATCH", "/api/pandaadmin/admins/abc", boss.headers, { nickname: "好名字" })).statusCode).toBe(400);
    expect((await call("PATCH", `/api/pandaadmin/admins/${boss.id}`, boss.headers, {})).statusCode).toBe(400);
    expect((await call("POST", `/api/pandaadmin/admins/${boss.id}/status`, boss.headers, { status: 2 })).json()).toMatchObject({ msg: "状态只能是 0 或 1" });
    const missing = await call("PATCH", "/api/pandaadmin/admins/999999", boss.headers, { nickname: "好名字" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe("管理员不存在");
    expect(await auditCount()).toBe(before);
  });

  it("edits nickname and role with before and after in the audit row", async () => {
    const target = await createTestAdmin(db(), { role: "editor" });
    const res = await call("PATCH", `/api/pandaadmin/admins/${target.id}`, boss.headers, { nickname: "主编", role: "super" });
    expect(res.json()).toMatchObject({ code: 1, msg: "保存成功", data: { nickname: "主编", role: "super", role_text: "超级管理员" } });
    const audit = await lastAudit("admin.update", target.id);
    expect(audit!.detail).toMatchObject({ before: { role: "editor", nickname: "" }, after: { role: "super", nickname: "主编" } });
    // The role counts on the next request: the new super opens the admins list.
    expect((await call("GET", "/api/pandaadmin/admins/index", target.headers)).statusCode).toBe(200);
  });

  it("disables an admin: their sessions end, the next request is refused, they cannot log in; enables again", async () => {
    const target = await adminWithPassword(db(), { role: "editor", password: "ed-pass-1" });
    const res = await call("POST", `/api/pandaadmin/admins/${target.id}/status`, boss.headers, { status: 0 });
    expect(res.json()).toMatchObject({ code: 1, msg: "已禁用", data: { status: 0, status_text: "禁用" } });
    expect((await live(target.token)).statusCode).toBe(401);
    expect(await db().select().from(sessions).where(eq(sessions.adminId, target.id))).toEqual([]);
    const login = await app.inject({ method: "POST", url: "/api/pandaadmin/login", payload: { username: target.username, password: "ed-pass-1" }, remoteAddress: "10.88.0.2" });
    expect(login.statusCode).toBe(403);
    expect((await lastAudit("admin.status", target.id))!.detail).toMatchObject({ before: { status: 1 }, after: { status: 0 } });
    const back = await call("POST", `/api/pandaadmin/admins/${target.id}/status`, boss.headers, { status: 1 });
    expect(back.json()).toMatchObject({ msg: "已启用", data: { status: 1 } });
  });

  it("a session still open when its admin is disabled is refused with 403 on the next request", async () => {
    const target = await createTestAdmin(db(), { role: "editor" });
    await db().update(admins).set({ status: 0 }).where(eq(admins.id, target.id));
    const res = await live(target.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe("管理员账号已被禁用");
  });

  it("nobody disables or demotes themself; the last enabled super stays", async () => {
    const before = await auditCount();
    const self = await call("POST", `/api/pandaadmin/admins/${boss.id}/status`, boss.headers, { status: 0 });
    expect(self.statusCode).toBe(400);
    expect(self.json().msg).toBe("不能禁用自己的账号");
    const demote = await call("PATCH", `/api/pandaadmin/admins/${boss.id}`, boss.headers, { role: "editor" });
    expect(demote.statusCode).toBe(400);
    expect(demote.json().msg).toBe("不能取消自己的超级管理员权限");
    // Renaming oneself is fine.
    expect((await call("PATCH", `/api/pandaadmin/admins/${boss.id}`, boss.headers, { nickname: "老板", role: "super" })).statusCode).toBe(200);

    // Two supers disabling each other at once: one wins, the other is told the last super stays.
    await db().update(admins).set({ status: 0 }).where(and(eq(admins.role, "super")));
    const a = await createTestAdmin(db(), { role: "super" });
    const b = await createTestAdmin(db(), { role: "super" });
    const [ab, ba] = await Promise.all([
      call("POST", `/api/pandaadmin/admins/${b.id}/status`, a.headers, { status: 0 }),
      call("POST", `/api/pandaadmin/admins/${a.id}/status`, b.headers, { status: 0 }),
    ]);
    const codes = [ab.statusCode, ba.statusCode].sort();
    // The loser is refused either by the rule (400) or, when the winner's change landed first, by the seam (401/403).
    expect(codes[0]).toBe(200);
    expect([400, 401, 403]).toContain(codes[1]);
    const enabled = await db().select().from(admins).where(and(eq(admins.role, "super"), eq(admins.status, 1)));
    expect(enabled.length).toBe(1);
    // The last enabled super, asked through the service by anyone, stays.
    const last = enabled[0]!;
    const service = app.services.adminAccounts;
    await expect(service.setStatus({ adminId: boss.id, ip: "127.0.0.1" }, last.id, 0)).rejects.toMatchObject({ status: 400, message: "至少需要保留一个启用的超级管理员" });
    await expect(service.update({ adminId: boss.id, ip: "127.0.0.1" }, last.id, { role: "editor" })).rejects.toMatchObject({ status: 400, message: "至少需要保留一个启用的超级管理员" });
    expect(await row(last.id)).toMatchObject({ status: 1, role: "super" });
    await db().update(admins).set({ status: 1 }).where(eq(admins.id, boss.id));
    expect(await auditCount()).toBe(before + 2);
  });

  it("resets another admin's password: their sessions end, the new password works and must be changed first", async () => {
    const target = await adminWithPassword(db(), { role: "editor", password: "old-pass-1" });
    const res = await call("POST", `/api/pandaadmin/admins/${target.id}/password`, boss.headers, { password: "new-pass-2" });
    expect(res.json()).toMatchObject({ code: 1, msg: "密码已重置" });
    expect((await live(target.token)).statusCode).toBe(401);
    expect(await verifyPassword((await row(target.id)).passwordHash, "new-pass-2")).toBe(true);
    // The super knows it: the admin signs in, then can do nothing but change it.
    expect((await row(target.id)).mustChangePassword).toBe(true);
    const login = await app.inject({ method: "POST", url: "/api/pandaadmin/login", payload: { username: target.username, password: "new-pass-2" }, remoteAddress: "10.88.0.4" });
    const token = login.json().data.token as string;
    const locked = await call("GET", "/api/pandaadmin/dashboard", { authorization: `Bearer ${token}` });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().msg).toMatch(/^请先修改初始密码/u);
    const changed = await call("POST", "/api/pandaadmin/password", { authorization: `Bearer ${token}` }, { oldPassword: "new-pass-2", password: "own-pass-3", confirm: "own-pass-3" });
    expect(changed.json()).toMatchObject({ code: 1 });
    expect((await row(target.id)).mustChangePassword).toBe(false);
    const audit = await lastAudit("admin.reset_password", target.id);
    expect(audit).toMatchObject({ adminId: boss.id });
    expect(JSON.stringify(audit!.detail)).not.toMatch(/new-pass|hash/iu);
    expect((await call("POST", `/api/pandaadmin/admins/${target.id}/password`, boss.headers, { password: "12345" })).statusCode).toBe(400);
  });

  it("an admin changes their own password: old one checked, rules of the site, other sessions end, this one stays", async () => {
    const me = await adminWithPassword(db(), { role: "editor", password: "mine-pass-1" });
    const login = await app.inject({ method: "POST", url: "/api/pandaadmin/login", payload: { username: me.username, password: "mine-pass-1" }, remoteAddress: "10.88.0.3" });
    const other = login.json().data.token as string;
    const headers = me.headers;
    const before = await auditCount();
    const wrongOld = await call("POST", "/api/pandaadmin/password", headers, { oldPassword: "nope", password: "mine-pass-2", confirm: "mine-pass-2" });
    expect(wrongOld.statusCode).toBe(400);
    expect(wrongOld.json().msg).toBe("原密码错误");
    expect((await call("POST", "/api/pandaadmin/password", headers, { oldPassword: "mine-pass-1", password: "abc", confirm: "abc" })).json().msg).toBe("密码长度必须在6到30个字符之间");
    expect((await call("POST", "/api/pandaadmin/password", headers, { oldPassword: "mine-pass-1", password: "mine-pass-2", confirm: "mine-pass-3" })).json().msg).toBe("两次输入的密码不一致");
    expect((await call("POST", "/api/pandaadmin/password", headers, { oldPassword: "", password: "mine-pass-2", confirm: "mine-pass-2" })).json().msg).toBe("请输入原密码");
    expect(await auditCount()).toBe(before);

    const res = await call("POST", "/api/pandaadmin/password", headers, { oldPassword: "mine-pass-1", password: "mine-pass-2", confirm: "mine-pass-2" });
    expect(res.json()).toMatchObject({ code: 1, msg: "密码修改成功" });
    expect((await live(me.token)).statusCode).toBe(200);
    expect((await live(other)).statusCode).toBe(401);
    expect(await verifyPassword((await row(me.id)).passwordHash, "mine-pass-2")).toBe(true);
    expect(await lastAudit("admin.password", me.id)).toMatchObject({ adminId: me.id, targetType: "admin" });
  });

  it("lists admins in the table conventions: bare {total, rows}, search, filter, sort; 400 for unknown keys", async () => {
    const res = await call("GET", "/api/pandaadmin/admins/index?search=editor_li", boss.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(1);
    expect(body.rows[0]).toMatchObject({ username: "editor_li", role_text: "编辑", status_text: "正常" });
    expect(body.rows[0].last_login).toEqual(expect.any(Number));
    expect(res.body).not.toMatch(/hash/iu);
    const editors = (await call("GET", `/api/pandaadmin/admins/index?filter=${encodeURIComponent('{"role":"editor"}')}&sort=id&order=asc&limit=100`, boss.headers)).json();
    expect(editors.rows.every((r: { role: string }) => r.role === "editor")).toBe(true);
    expect(editors.rows.map((r: { id: number }) => r.id)).toEqual([...editors.rows.map((r: { id: number }) => r.id)].sort((a, b) => a - b));
    const bad = await call("GET", `/api/pandaadmin/admins/index?filter=${encodeURIComponent('{"password_hash":"x"}')}`, boss.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 0, msg: "筛选条件无效" });
    expect((await call("GET", "/api/pandaadmin/admins/index?sort=password_hash", boss.headers)).json().msg).toBe("排序字段无效");
  });
});
