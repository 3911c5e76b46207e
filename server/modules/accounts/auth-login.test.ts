import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginRecords, sessions } from "../../db/schema/index.js";
import { adjustableClock, type AdjustableClock } from "../../lib/clock.js";
import { solveCaptcha } from "../../testing/captcha.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser, type TestUser } from "../../testing/users.js";
import { CAPTCHA_TTL_MS } from "./captcha.js";
import { LOGIN_LOCK_MS } from "./login-throttle.js";
import { hashToken } from "./session-service.js";

let addressSeq = 0;
/** A fresh client address per scenario, so counts from one never leak into another. */
const freshIp = () => `10.20.${Math.floor(++addressSeq / 250)}.${(addressSeq % 250) + 1}`;

describe.each(testEngines())("POST /api/user/login on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let clock: AdjustableClock;

  beforeAll(async () => {
    clock = adjustableClock();
    testApp = await createTestApp(engine, { clock });
    app = testApp.app;
  });
  afterAll(() => testApp?.close());

  const login = (payload: unknown, opts: { ip: string; headers?: Record<string, string> }) =>
    app.inject({ method: "POST", url: "/api/user/login", payload: payload as object, remoteAddress: opts.ip, headers: { "user-agent": "vitest-browser/1.0", ...opts.headers } });
  const member = (opts: Parameters<typeof createTestUser>[1] = {}) => createTestUser(app, opts);
  /** Fails `times` logins of `account` from `ip` (no captcha sent) and returns the last answer. */
  async function failTimes(account: string, ip: string, times: number) {
    let last;
    for (let i = 0; i < times; i++) last = await login({ account, password: "wrong-password" }, { ip });
    return last!;
  }

  it("logs in by username or email, in any letter case and with spaces around", async () => {
    const user = await member({ username: `DjWang${++addressSeq}`, password: "夜店慢摇2026" });
    for (const account of [user.username, user.username.toLowerCase(), `  ${user.email.toUpperCase()} `]) {
      const res = await login({ account, password: "夜店慢摇2026" }, { ip: freshIp() });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ code: 1, msg: "登录成功", data: { iscaptcha: 0, user: { id: user.id, username: user.username, email: user.email, status: 1 } } });
      expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(res.body).not.toMatch(/password|hash/i);
    }
  });

  it("the token works on /api/user/isloging and stops after /api/user/logout; the login is recorded", async () => {
    const user = await member({ password: "secret-pass" });
    const ip = freshIp();
    const { data } = (await login({ account: user.username, password: "secret-pass" }, { ip })).json();
    const bearer = { authorization: `Bearer ${data.token}` };
    const check = await app.inject({ url: "/api/user/isloging", headers: bearer });
    expect(check.json()).toMatchObject({ code: 1, data: { id: user.id } });

    const [session] = await testApp.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(data.token)));
    expect(session).toMatchObject({ userId: user.id, ip, userAgent: "vitest-browser/1.0" });
    const records = await testApp.database.db.select().from(loginRecords).where(eq(loginRecords.userId, user.id));
    expect(records).toEqual([expect.objectContaining({ ip, userAgent: "vitest-browser/1.0", success: true, adminId: null })]);

    const out = await app.inject({ method: "POST", url: "/api/user/logout", headers: bearer });
    expect(out.json()).toMatchObject({ code: 1, msg: "退出成功" });
    expect((await app.inject({ url: "/api/user/isloging", headers: bearer })).statusCode).toBe(401);
  });

  it("answers 登录失败 alike for a wrong password and an unknown account, counting each in iscaptcha", async () => {
    const user = await member();
    const wrong = await login({ account: user.username, password: "not-it" }, { ip: freshIp() });
    const unknown = await login({ account: `nobody${addressSeq}@example.test`, password: "not-it" }, { ip: freshIp() });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 0, msg: "登录失败", data: { iscaptcha: 1 } });
    }
    // The second failure of the same account (any case, spaces around), from yet another address, counts 2.
    const again = await login({ account: ` ${user.username.toUpperCase()}`, password: "not-it" }, { ip: freshIp() });
    expect(again.json()).toMatchObject({ code: 0, msg: "登录失败", data: { iscaptcha: 2 } });
  });

  it("takes about as long for an unknown account as for a wrong password (a dummy hash is checked)", async () => {
    const user = await member();
    const time = async (account: string) => {
      const started = performance.now();
      await login({ account, password: "not-it" }, { ip: freshIp() });
      return performance.now() - started;
    };
    await time(user.username); // warm-up
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(user.username));
      unknown.push(await time(`ghost${addressSeq}x${i}`));
    }
    // argon2id at 19 MiB takes tens of ms; a lookup alone takes a few. The fastest of each is
    // compared: a busy machine only ever makes a login slower (a median of four failed once in CI).
    expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.5);
  });

  it("requires the captcha from the 5th failure: 请输入验证码, 验证码错误, and the count keeps rising", async () => {
    const user = await member({ password: "right-one" });
    const ip = freshIp();
    for (let i = 1; i <= 4; i++) {
      const res = await login({ account: user.username, password: "nope" }, { ip });
      expect(res.json().data).toEqual({ iscaptcha: i });
    }
    // Still below the threshold: the 5th attempt is checked without a captcha, and fails.
    expect((await login({ account: user.username, password: "nope" }, { ip })).json()).toMatchObject({ msg: "登录失败", data: { iscaptcha: 5 } });
    // From now on the right password alone is not enough.
    const missing = await login({ account: user.username, password: "right-one" }, { ip });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 0, msg: "请输入验证码", data: { iscaptcha: 6 } });
    const blank = await login({ account: user.username, password: "right-one", captcha: "  " }, { ip });
    expect(blank.json()).toMatchObject({ msg: "请输入验证码", data: { iscaptcha: 7 } });
    const captcha = await solveCaptcha(app, { remoteAddress: ip });
    const wrong = await login({ account: user.username, password: "right-one", captcha: "ZZZZ" }, { ip, headers: captcha.headers });
    expect(wrong.json()).toMatchObject({ code: 0, msg: "验证码错误", data: { iscaptcha: 8 } });
    // The wrong guess used that image up: its right answer no longer works.
    const burnt = await login({ account: user.username, password: "right-one", captcha: captcha.answer }, { ip, headers: captcha.headers });
    expect(burnt.json()).toMatchObject({ msg: "验证码错误", data: { iscaptcha: 9 } });
    // A solved captcha with a wrong password is a plain failure.
    const solvedWrongPassword = await solveCaptcha(app, { remoteAddress: ip });
    const res = await login({ account: user.username, password: "nope", captcha: solvedWrongPassword.answer }, { ip, headers: solvedWrongPassword.headers });
    expect(res.json()).toMatchObject({ msg: "登录失败", data: { iscaptcha: 10 } });
    // Solved (lower case is fine) with the right password: in, and the account's count is cleared.
    const solved = await solveCaptcha(app, { remoteAddress: ip });
    const ok = await login({ account: user.username, password: "right-one", captcha: solved.answer.toLowerCase() }, { ip, headers: solved.headers });
    expect(ok.json()).toMatchObject({ code: 1, msg: "登录成功", data: { iscaptcha: 0 } });
    // A captcha works once: the same answer again is refused (the address still counts 10 failures).
    const reused = await login({ account: user.username, password: "right-one", captcha: solved.answer }, { ip, headers: solved.headers });
    expect(reused.json()).toMatchObject({ msg: "验证码错误", data: { iscaptcha: 11 } });
    // From another address the account starts afresh.
    const elsewhere = await login({ account: user.username, password: "right-one" }, { ip: freshIp() });
    expect(elsewhere.json()).toMatchObject({ code: 1 });
  });

  it("refuses a captcha answered after five minutes", async () => {
    const user = await member({ password: "right-one" });
    const ip = freshIp();
    await failTimes(user.username, ip, 5);
    const captcha = await solveCaptcha(app, { remoteAddress: ip });
    clock.advance(CAPTCHA_TTL_MS + 1000);
    const late = await login({ account: user.username, password: "right-one", captcha: captcha.answer }, { ip, headers: captcha.headers });
    expect(late.json()).toMatchObject({ msg: "验证码错误", data: { iscaptcha: 6 } });
  });

  it("counts failures per address across accounts", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) await login({ account: `stranger${addressSeq}n${i}`, password: "x" }, { ip });
    const user = await member({ password: "right-one" });
    // The address has failed 5 times: this account's first attempt from it needs the captcha.
    const res = await login({ account: user.username, password: "right-one" }, { ip });
    expect(res.json()).toMatchObject({ code: 0, msg: "请输入验证码", data: { iscaptcha: 6 } });
    // The same account from a clean address does not.
    expect((await login({ account: user.username, password: "right-one" }, { ip: freshIp() })).json().code).toBe(1);
  });

  it("forgets failures after the 15-minute window", async () => {
    const user = await member({ password: "right-one" });
    const ip = freshIp();
    await failTimes(user.username, ip, 6);
    clock.advance(15 * 60_000 + 1000);
    const res = await login({ account: user.username, password: "nope" }, { ip });
    expect(res.json()).toMatchObject({ msg: "登录失败", data: { iscaptcha: 1 } });
  });

  it("never locks an account for everyone: failures from many addresses only ask for the captcha", async () => {
    const user = await member({ password: "right-one" });
    const ghost = `ghost-lock${addressSeq}`;
    for (const account of [user.username, ghost]) {
      let last;
      for (let i = 1; i <= 20; i++) last = await login({ account, password: "nope" }, { ip: freshIp() });
      expect(last!.statusCode).toBe(401);
      expect(last!.json()).toMatchObject({ code: 0, msg: "请输入验证码", data: { iscaptcha: 20 } });
    }
    // The owner, from yet another address, with the captcha the failures ask for.
    const ip = freshIp();
    const captcha = await solveCaptcha(app, { remoteAddress: ip });
    const owner = await login({ account: user.username.toUpperCase(), password: "right-one", captcha: captcha.answer }, { ip, headers: captcha.headers });
    expect(owner.json()).toMatchObject({ code: 1 });
  });

  it("locks an account at one address for 15 minutes after 20 failures from it; a solved captcha still lets the owner in", async () => {
    const user = await member({ password: "right-one" });
    const ip = freshIp();
    let last;
    for (let i = 1; i <= 20; i++) {
      const captcha = await solveCaptcha(app, { remoteAddress: ip });
      last = await login({ account: user.username, password: "nope", captcha: captcha.answer }, { ip, headers: captcha.headers });
    }
    expect(last!.statusCode).toBe(429);
    expect(last!.json()).toMatchObject({ code: 0, msg: "登录失败次数过多，请15分钟后再试", data: { iscaptcha: 20 } });
    // Without a captcha the right password is not even looked at there…
    const bare = await login({ account: user.username, password: "right-one" }, { ip });
    expect(bare.statusCode).toBe(429);
    // …a wrong captcha neither…
    const wrong = await login({ account: user.username, password: "right-one", captcha: "0000" }, { ip });
    expect(wrong.statusCode).toBe(429);
    // …while a solved one is, and the owner signs in, which ends the lock.
    const captcha = await solveCaptcha(app, { remoteAddress: ip });
    const owner = await login({ account: user.username, password: "right-one", captcha: captcha.answer }, { ip, headers: captcha.headers });
    expect(owner.json()).toMatchObject({ code: 1 });
    const again = await solveCaptcha(app, { remoteAddress: ip });
    expect((await login({ account: user.username, password: "right-one", captcha: again.answer }, { ip, headers: again.headers })).json().code).toBe(1);
  });

  it("the lock of an account at an address ends after 15 minutes", async () => {
    const user = await member({ password: "right-one" });
    const ip = freshIp();
    for (let i = 1; i <= 20; i++) {
      const captcha = await solveCaptcha(app, { remoteAddress: ip });
      await login({ account: user.username, password: "nope", captcha: captcha.answer }, { ip, headers: captcha.headers });
    }
    expect((await login({ account: user.username, password: "right-one" }, { ip })).statusCode).toBe(429);
    clock.advance(LOGIN_LOCK_MS + 1000);
    // The window of failures ended too: no captcha asked.
    expect((await login({ account: user.username, password: "right-one" }, { ip })).json().code).toBe(1);
  });

  it("locks an address after 100 failures across accounts", async () => {
    const ip = freshIp();
    let last;
    for (let i = 1; i <= 100; i++) last = await login({ account: `spray${addressSeq}n${i}`, password: "x" }, { ip });
    expect(last!.statusCode).toBe(429);
    expect(last!.json()).toMatchObject({ msg: "登录失败次数过多，请15分钟后再试", data: { iscaptcha: 100 } });
    const user = await member({ password: "right-one" });
    expect((await login({ account: user.username, password: "right-one" }, { ip })).statusCode).toBe(429);
    expect((await login({ account: user.username, password: "right-one" }, { ip: freshIp() })).json().code).toBe(1);
    clock.advance(LOGIN_LOCK_MS + 1000);
  });

  it("tells a disabled member 账号已被禁用 (403) only when the password was right", async () => {
    const banned: TestUser = await member({ status: 0, password: "right-one" });
    const wrong = await login({ account: banned.username, password: "nope" }, { ip: freshIp() });
    expect(wrong.json()).toMatchObject({ code: 0, msg: "登录失败" });
    const right = await login({ account: banned.username, password: "right-one" }, { ip: freshIp() });
    expect(right.statusCode).toBe(403);
    expect(right.json()).toMatchObject({ code: 0, msg: "账号已被禁用" });
    const live = await testApp.database.db.select().from(sessions).where(eq(sessions.userId, banned.id));
    expect(live).toHaveLength(1); // only the test helper's own session: no new one
  });

  it("answers bad input with 400 and the field's message, never 500", async () => {
    const ip = freshIp();
    const cases: [unknown, string][] = [
      [{ password: "x" }, "请输入用户名/邮箱"],
      [{ account: "   ", password: "x" }, "请输入用户名/邮箱"],
      [{ account: 12345, password: "x" }, "请输入用户名/邮箱"],
      [{ account: ["a"], password: "x" }, "请输入用户名/邮箱"],
      [{ account: "dj" }, "请输入密码"],
      [{ account: "dj", password: "" }, "请输入密码"],
      [{ account: "dj", password: { $ne: 1 } }, "请输入密码"],
      [{ account: "dj", password: "x".repeat(129) }, "请输入密码"],
      [{ account: `${"a".repeat(250)}@example.test`, password: "x" }, "用户名/邮箱过长"],
      [{ account: "dj", password: "x", captcha: 1234 }, "验证码错误"],
      [{ account: "dj", password: "x", captcha: "A".repeat(11) }, "验证码错误"],
    ];
    for (const [payload, msg] of cases) {
      const res = await login(payload, { ip });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ code: 0, msg });
    }
    const raw = (body: string, type: string) =>
      app.inject({ method: "POST", url: "/api/user/login", payload: body, headers: { "content-type": type }, remoteAddress: ip });
    for (const res of [await raw("{not json", "application/json"), await raw("[1,2]", "application/json"), await raw("null", "application/json")]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(0);
    }
    expect((await raw("account=dj&password=x", "application/x-www-form-urlencoded")).statusCode).toBe(415);
    const huge = await raw(JSON.stringify({ account: "dj", password: "x", pad: "x".repeat(20_000) }), "application/json");
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 0, msg: "上传的内容过大" });
    // Bad input is not a counted failure.
    expect((await login({ account: "dj", password: "x" }, { ip })).json().data).toEqual({ iscaptcha: 1 });
  });

  it("is in the OpenAPI document under the user tag", async () => {
    const doc = (await app.inject("/api/docs/json")).json();
    expect(doc.paths["/api/user/login"].post.tags).toEqual(["user"]);
    expect(doc.paths["/api/user/login"].post.requestBody).toBeDefined();
  });
});
