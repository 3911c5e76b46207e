import { desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admins, loginRecords, sessions } from "../../db/schema/index.js";
import { solveCaptcha } from "../../testing/captcha.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";
import { hashToken } from "../accounts/session-service.js";
import { adminWithPassword } from "./test-fixtures.js";

let addressSeq = 0;
/** A fresh (private) client address per scenario, so counts never leak from one to another. */
const freshIp = () => `10.77.${Math.floor(++addressSeq / 250)}.${(addressSeq % 250) + 1}`;

describe.each(testEngines())("POST /api/pandaadmin/login on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
  });
  afterAll(() => testApp?.close());

  const db = () => testApp.database.db;
  const login = (payload: unknown, ip: string, headers: Record<string, string> = {}) =>
    app.inject({ method: "POST", url: "/api/pandaadmin/login", payload: payload as object, remoteAddress: ip, headers: { "user-agent": "vitest-admin/1.0", ...headers } });
  const records = (adminId: number) => db().select().from(loginRecords).where(eq(loginRecords.adminId, adminId)).orderBy(desc(loginRecords.id));

  it("logs in by name (any case): a 24-hour admin session, last_login_at, a login record with 内网IP for 127.0.0.1", async () => {
    const admin = await adminWithPassword(db(), { password: "Panda-2026", username: `Boss${++addressSeq}` });
    const res = await login({ username: ` ${admin.username.toUpperCase()} `, password: "Panda-2026" }, "127.0.0.1");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 1, msg: "登录成功", data: { iscaptcha: 0, admin: { id: admin.id, username: admin.username, role: "super", status: 1 } } });
    // No hash and no password: the one word allowed is the first-start flag's name (issue 25).
    expect(res.body.replaceAll('"mustChangePassword":false', "")).not.toMatch(/hash|password/iu);
    const check = await app.inject({ url: "/api/pandaadmin/check", headers: { authorization: `Bearer ${body.data.token}` } });
    expect(check.json()).toMatchObject({ code: 1, data: { id: admin.id } });
    const [session] = await db().select().from(sessions).where(eq(sessions.tokenHash, hashToken(body.data.token)));
    expect(session).toMatchObject({ adminId: admin.id, userId: null, ip: "127.0.0.1", userAgent: "vitest-admin/1.0" });
    const [row] = await db().select().from(admins).where(eq(admins.id, admin.id));
    expect(row!.lastLoginAt).toBeInstanceOf(Date);
    expect(Date.now() - row!.lastLoginAt!.getTime()).toBeLessThan(60_000);
    const [record] = await records(admin.id);
    expect(record).toMatchObject({ adminId: admin.id, userId: null, success: true, ip: "127.0.0.1", location: "内网IP", userAgent: "vitest-admin/1.0" });
    // A member token is not what this login gives, and a member cannot log in here.
    const member = await createTestUser(app, { password: "Panda-2026" });
    expect((await login({ username: member.username, password: "Panda-2026" }, freshIp())).statusCode).toBe(401);
  });

  it("records the location of a public address from ip2region's offline data", async () => {
    const admin = await adminWithPassword(db());
    expect((await login({ username: admin.username, password: admin.password }, "120.24.78.68")).statusCode).toBe(200);
    expect((await login({ username: admin.username, password: admin.password }, "::ffff:8.8.8.8")).statusCode).toBe(200);
    const [google, aliyun] = await records(admin.id);
    expect(aliyun).toMatchObject({ ip: "120.24.78.68", location: "中国 广东省 深圳市 阿里云", success: true });
    expect(google!.location).toContain("美国");
  });

  it("a wrong password: 401 登录失败 with the count, recorded as a failure; an unknown name answers the same and records nothing", async () => {
    const admin = await adminWithPassword(db());
    const ip = freshIp();
    const wrong = await login({ username: admin.username, password: "nope" }, ip);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 0, msg: "登录失败", data: { iscaptcha: 1 } });
    expect((await records(admin.id))[0]).toMatchObject({ success: false, ip, location: "内网IP" });
    const before = (await db().select().from(loginRecords)).length;
    const unknown = await login({ username: "nobody-here", password: "nope" }, freshIp());
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ code: 0, msg: "登录失败", data: { iscaptcha: 1 } });
    expect((await db().select().from(loginRecords)).length).toBe(before);
  });

  it("asks for the captcha from the 5th failure, then logs in with a solved one", async () => {
    const admin = await adminWithPassword(db());
    const ip = freshIp();
    for (let i = 1; i <= 5; i++) expect((await login({ username: admin.username, password: "bad" }, ip)).json().data.iscaptcha).toBe(i);
    const missing = await login({ username: admin.username, password: admin.password }, ip);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ msg: "请输入验证码", data: { iscaptcha: 6 } });
    const wrongCaptcha = await solveCaptcha(app, { remoteAddress: ip });
    const wrong = await login({ username: admin.username, password: admin.password, captcha: "0000" }, ip, wrongCaptcha.headers);
    expect(wrong.json()).toMatchObject({ msg: "验证码错误", data: { iscaptcha: 7 } });
    const solved = await solveCaptcha(app, { remoteAddress: ip });
    const ok = await login({ username: admin.username, password: admin.password, captcha: solved.answer.toLowerCase() }, ip, solved.headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ code: 1, data: { iscaptcha: 0 } });
  });

  it("locks the account at an address after 20 failures from it; the owner gets in from elsewhere or with a solved captcha", async () => {
    const admin = await adminWithPassword(db());
    // Failures spread over addresses lock nothing: they only ask for the captcha.
    let spread;
    for (let i = 0; i < 20; i++) spread = await login({ username: admin.username, password: "bad" }, freshIp());
    expect(spread!.statusCode).toBe(401);
    expect(spread!.json()).toMatchObject({ msg: "请输入验证码" });
    const ip = freshIp();
    let last;
    for (let i = 0; i < 20; i++) {
      const solved = await solveCaptcha(app, { remoteAddress: ip });
      last = await login({ username: admin.username, password: "bad", captcha: solved.answer }, ip, solved.headers);
    }
    expect(last!.statusCode).toBe(429);
    expect(last!.json()).toMatchObject({ code: 0, msg: "登录失败次数过多，请15分钟后再试" });
    expect((await login({ username: admin.username, password: admin.password }, ip)).statusCode).toBe(429);
    // The site's member login keeps its own counts: the same name is not locked there.
    const member = await app.inject({ method: "POST", url: "/api/user/login", payload: { account: admin.username, password: "x" }, remoteAddress: ip });
    expect(member.json().msg).toBe("登录失败");
    const elsewhere = freshIp();
    const fromElsewhere = await solveCaptcha(app, { remoteAddress: elsewhere });
    expect((await login({ username: admin.username, password: admin.password, captcha: fromElsewhere.answer }, elsewhere, fromElsewhere.headers)).statusCode).toBe(200);
    const solved = await solveCaptcha(app, { remoteAddress: ip });
    expect((await login({ username: admin.username, password: admin.password, captcha: solved.answer }, ip, solved.headers)).statusCode).toBe(200);
  });

  it("a disabled admin: 403 管理员账号已被禁用 only with the right password, no session", async () => {
    const admin = await adminWithPassword(db(), { status: 0 });
    const wrong = await login({ username: admin.username, password: "bad" }, freshIp());
    expect(wrong.json().msg).toBe("登录失败");
    const right = await login({ username: admin.username, password: admin.password }, freshIp());
    expect(right.statusCode).toBe(403);
    expect(right.json()).toMatchObject({ code: 0, msg: "管理员账号已被禁用" });
    const live = await db().select().from(sessions).where(eq(sessions.adminId, admin.id));
    expect(live.length).toBe(1); // only createTestAdmin's own session
  });

  it("bad input: 400 with the field's message, nothing counted", async () => {
    const ip = freshIp();
    const blank = await login({ username: "  ", password: "x" }, ip);
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ code: 0, msg: "请输入账号" });
    expect((await login({ username: "a" }, ip)).json().msg).toBe("请输入密码");
    expect((await login({ username: "a", password: "x", captcha: "x".repeat(11) }, ip)).statusCode).toBe(400);
    const next = await login({ username: "nobody-2", password: "x" }, ip);
    expect(next.json().data.iscaptcha).toBe(1);
  });
});
