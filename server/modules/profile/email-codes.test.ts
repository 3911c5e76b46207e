import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profilePaths as paths } from "@contracts/account-profile";
import { emailCodes, users } from "../../db/schema/index.js";
import { adjustableClock } from "../../lib/clock.js";
import { verifyPassword } from "../accounts/passwords.js";
import { ipBucket } from "../accounts/email-code-service.js";
import { lastOutboxCode, lastOutboxMail } from "../../testing/mail-codes.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser } from "../../testing/users.js";

let ipSeq = 0;
/** Each test asks from its own client address, so the per-IP caps of one never touch another. */
const nextIp = () => `10.1.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

describe.each(testEngines())("email codes and password reset on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  const clock = adjustableClock();

  const post = (url: string, payload: object, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
    app.inject({ method: "POST", url, payload, headers: opts.headers, remoteAddress: opts.ip ?? nextIp() });
  const answer = (res: { statusCode: number; json(): { code: number; msg: string; data: unknown } }) => ({
    status: res.statusCode,
    ...res.json(),
  });
  const sendReset = (email: string, ip?: string) => post(paths.sendCode, { email, event: "resetpwd" }, { ip });
  const reset = (email: string, captcha: string, password = "newpass123", ip?: string) =>
    post(paths.resetPassword, { email, captcha, password }, { ip });
  /** Lets the address be sent to again (one send per 60 s). */
  const afterResendWait = () => clock.advance(61_000);

  beforeAll(async () => {
    testApp = await createTestApp(engine, { clock });
    app = testApp.app;
  });
  afterAll(() => testApp?.close());

  it("checkEmailExist: a registered address in any case and spacing; an unknown one 404; bad input the field's message", async () => {
    const member = await createTestUser(app, { email: "Exists@Example.cn" });
    expect(answer(await post(paths.checkEmailExist, { email: "  exists@example.CN " }))).toMatchObject({
      status: 200,
      code: 1,
      msg: "该邮箱已注册",
      data: { exists: true },
    });
    expect(answer(await post(paths.checkEmailExist, { email: "nobody@example.cn" }))).toMatchObject({
      status: 404,
      code: 0,
      msg: "该邮箱未注册",
      data: { exists: false },
    });
    expect(answer(await post(paths.checkEmailExist, { email: "not-an-address" }))).toMatchObject({ status: 400, msg: "请输入正确的邮箱格式" });
    expect(answer(await post(paths.checkEmailExist, {}))).toMatchObject({ status: 400, msg: "请输入邮箱" });
    expect(answer(await post(paths.checkEmailExist, { email: 42 }))).toMatchObject({ status: 400, msg: "请输入邮箱" });
    expect(member.id).toBeGreaterThan(0);
  });

  it("sends a 6-digit code for resetpwd, kept only as a hash; refuses unknown, disabled and malformed requests", async () => {
    const member = await createTestUser(app);
    const res = answer(await sendReset(member.email));
    expect(res).toMatchObject({ status: 200, code: 1, msg: "验证码已发送", data: { retryAfter: 60 } });
    const mail = await lastOutboxMail(app, member.email);
    expect(mail.subject).toBe("【DJ搜索引擎网】找回密码验证码");
    const code = await lastOutboxCode(app, member.email);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await app.deps.database.db.select().from(emailCodes).where(eq(emailCodes.email, member.email.toLowerCase()));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event: "resetpwd", attempts: 0, usedAt: null });
    expect(rows[0].codeHash).not.toContain(code);
    expect(rows[0].expiresAt.getTime() - clock().getTime()).toBeGreaterThan(9 * 60_000);

    expect(answer(await sendReset("nobody@example.cn"))).toMatchObject({ status: 404, msg: "该邮箱未注册" });
    const banned = await createTestUser(app, { status: 0 });
    expect(answer(await sendReset(banned.email))).toMatchObject({ status: 403, msg: "账号已被禁用" });
    expect(answer(await post(paths.sendCode, { event: "resetpwd" }))).toMatchObject({ status: 400, msg: "请输入邮箱" });
    expect(answer(await post(paths.sendCode, { event: "resetpwd", email: "x@" }))).toMatchObject({ status: 400, msg: "请输入正确的邮箱格式" });
    expect(answer(await post(paths.sendCode, { event: "register", email: member.email }))).toMatchObject({ status: 400, msg: "验证码用途无效" });
    expect(answer(await post(paths.sendCode, { event: ["resetpwd"], email: member.email }))).toMatchObject({ status: 400 });
  });

  it("the member events need a login: a guest gets 401 请先登录", async () => {
    for (const event of ["verifyemail", "changeemail"]) {
      expect(answer(await post(paths.sendCode, { event, email: "new@example.cn" }))).toMatchObject({ status: 401, msg: "请先登录" });
    }
    expect(answer(await post(paths.checkCode, { event: "verifyemail", captcha: "123456" }))).toMatchObject({ status: 401, msg: "请先登录" });
  });

  it("one send per address per 60 s, answering the seconds left; then the address may ask again", async () => {
    const member = await createTestUser(app);
    expect((await sendReset(member.email)).statusCode).toBe(200);
    clock.advance(15_000);
    // Another letter case and another client address are still the same address.
    const again = answer(await sendReset(member.email.toUpperCase()));
    expect(again).toMatchObject({ status: 429, code: 0, msg: "发送过于频繁，请45秒后再试", data: { retryAfter: 45 } });
    clock.advance(44_000);
    expect(answer(await sendReset(member.email))).toMatchObject({ status: 429, msg: "发送过于频繁，请1秒后再试", data: { retryAfter: 1 } });
    clock.advance(1_000);
    expect(answer(await sendReset(member.email))).toMatchObject({ status: 200, msg: "验证码已发送" });
  });

  it("caps sends per client address per hour (20), then answers 429 until the hour has passed", async () => {
    const member = await createTestUser(app);
    const ip = nextIp();
    const sendTo = (n: number) => post(paths.sendCode, { event: "changeemail", email: `cap${n}-${engine}@example.cn` }, { ip, headers: member.headers });
    // A new address gets codes once the current one is verified (from another address: not counted here).
    const verifyCurrent = async () => {
      await post(paths.sendCode, { event: "verifyemail" }, { headers: member.headers });
      const code = await lastOutboxCode(app, member.email);
      expect((await post(paths.checkCode, { event: "verifyemail", captcha: code }, { headers: member.headers })).statusCode).toBe(200);
    };
    await verifyCurrent();
    for (let n = 1; n <= 20; n++) expect((await sendTo(n)).statusCode, `send ${n}`).toBe(200);
    expect(answer(await sendTo(21))).toMatchObject({ status: 429, code: 0, msg: "验证码发送次数过多，请一小时后再试" });
    // The refused address was not marked as sent: it may ask as soon as the IP may.
    clock.advance(3600_000);
    await verifyCurrent();
    expect(answer(await sendTo(21))).toMatchObject({ status: 200, msg: "验证码已发送" });
  });

  it("groups IPv6 clients by /64 and IPv4 by address", () => {
    expect(ipBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(ipBucket("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(ipBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(ipBucket("::ffff:203.0.113.7")).toBe("::ffff:203.0.113.7");
  });

  it("resets the password with the code: the new one works, every old session ends, the code works once", async () => {
    const member = await createTestUser(app, { password: "oldpass123" });
    await sendReset(member.email);
    const code = await lastOutboxCode(app, member.email);
    expect(answer(await reset(member.email, code, "brandnew99"))).toMatchObject({ status: 200, code: 1, msg: "密码重置成功，请登录" });
    const [row] = await app.deps.database.db.select().from(users).where(eq(users.id, member.id));
    expect(await verifyPassword(row.passwordHash, "brandnew99")).toBe(true);
    expect(await verifyPassword(row.passwordHash, "oldpass123")).toBe(false);
    const isloging = await app.inject({ url: "/api/user/isloging", headers: member.headers });
    expect(answer(isloging)).toMatchObject({ status: 401, msg: "请先登录" });
    expect(answer(await reset(member.email, code, "another99"))).toMatchObject({ status: 400, msg: "验证码已使用，请重新获取" });
  });

  it("wrong codes: 验证码错误, the fifth wrong try kills the code, and then even the right one is refused", async () => {
    const member = await createTestUser(app);
    await sendReset(member.email);
    const code = await lastOutboxCode(app, member.email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 1; i <= 4; i++) expect(answer(await reset(member.email, wrong))).toMatchObject({ status: 400, msg: "验证码错误" });
    expect(answer(await reset(member.email, wrong))).toMatchObject({ status: 400, msg: "验证码错误次数过多，请重新获取" });
    expect(answer(await reset(member.email, code))).toMatchObject({ status: 400, msg: "验证码错误次数过多，请重新获取" });
    // A new code starts afresh.
    afterResendWait();
    await sendReset(member.email);
    expect(answer(await reset(member.email, await lastOutboxCode(app, member.email)))).toMatchObject({ status: 200 });
  });

  it("an expired code (10 minutes) and a superseded one are refused", async () => {
    const member = await createTestUser(app);
    await sendReset(member.email);
    const first = await lastOutboxCode(app, member.email);
    clock.advance(10 * 60_000 + 1_000);
    expect(answer(await reset(member.email, first))).toMatchObject({ status: 400, msg: "验证码已过期，请重新获取" });

    await sendReset(member.email);
    const older = await lastOutboxCode(app, member.email);
    afterResendWait();
    await sendReset(member.email);
    const newer = await lastOutboxCode(app, member.email);
    if (older !== newer) expect(answer(await reset(member.email, older))).toMatchObject({ status: 400, msg: "验证码错误" });
    expect(answer(await reset(member.email, newer))).toMatchObject({ status: 200 });
  });

  it("before any code: 请先获取验证码; field rules: code length, password length, required fields", async () => {
    const member = await createTestUser(app);
    expect(answer(await reset(member.email, "123456"))).toMatchObject({ status: 400, msg: "请先获取验证码" });
    expect(answer(await reset(member.email, "123"))).toMatchObject({ status: 400, msg: "验证码长度不正确" });
    expect(answer(await reset(member.email, "1234567"))).toMatchObject({ status: 400, msg: "验证码长度不正确" });
    expect(answer(await reset(member.email, ""))).toMatchObject({ status: 400, msg: "请输入验证码" });
    expect(answer(await reset(member.email, "123456", "12345"))).toMatchObject({ status: 400, msg: "密码长度必须在6-30个字符之间" });
    expect(answer(await reset(member.email, "123456", "x".repeat(31)))).toMatchObject({ status: 400, msg: "密码长度必须在6-30个字符之间" });
    expect(answer(await post(paths.resetPassword, { email: member.email, captcha: "123456" }))).toMatchObject({ status: 400, msg: "请输入密码" });
    expect(answer(await reset("nobody@example.cn", "123456"))).toMatchObject({ status: 404, msg: "该邮箱未注册" });
  });

  it("checkCode (resetpwd) says whether the code is right without using it; wrong checks count as tries", async () => {
    const member = await createTestUser(app);
    await sendReset(member.email);
    const code = await lastOutboxCode(app, member.email);
    const check = (captcha: string) => post(paths.checkCode, { email: member.email, event: "resetpwd", captcha });
    expect(answer(await check(code))).toMatchObject({ status: 200, code: 1, msg: "验证码正确" });
    expect(answer(await check(code))).toMatchObject({ status: 200 });
    const wrong = code === "999999" ? "888888" : "999999";
    expect(answer(await check(wrong))).toMatchObject({ status: 400, msg: "验证码错误" });
    const [row] = await app.deps.database.db.select().from(emailCodes).where(eq(emailCodes.email, member.email.toLowerCase()));
    expect(row.attempts).toBe(1);
    expect(answer(await reset(member.email, code))).toMatchObject({ status: 200 });
  });

  it("two resets racing with one code: exactly one wins", async () => {
    const member = await createTestUser(app);
    await sendReset(member.email);
    const code = await lastOutboxCode(app, member.email);
    const results = await Promise.all([reset(member.email, code, "racer0001"), reset(member.email, code, "racer0002")]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)?.json().msg).toBe("验证码已使用，请重新获取");
  });
});
