import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema/index.js";
import { adjustableClock, type AdjustableClock } from "../../lib/clock.js";
import { solveCaptcha } from "../../testing/captcha.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { CAPTCHA_TTL_MS } from "./captcha.js";
import { verifyPassword } from "./passwords.js";

let seq = 0;
const freshIp = () => `10.30.${Math.floor(++seq / 250)}.${(seq % 250) + 1}`;
const uniqueName = (prefix = "dj") => `${prefix}${process.pid % 1000}x${++seq}`;

describe.each(testEngines())("POST /api/user/register on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let clock: AdjustableClock;

  beforeAll(async () => {
    clock = adjustableClock();
    testApp = await createTestApp(engine, { clock });
    app = testApp.app;
  });
  afterAll(() => testApp?.close());

  /** Registers with a freshly solved captcha (unless the body brings its own). */
  async function register(body: Record<string, unknown>, opts: { ip?: string; solve?: boolean } = {}) {
    const ip = opts.ip ?? freshIp();
    const captcha = await solveCaptcha(app, { remoteAddress: ip });
    const payload = opts.solve === false ? body : { captcha: captcha.answer, ...body };
    return app.inject({ method: "POST", url: "/api/user/register", payload, headers: captcha.headers, remoteAddress: ip });
  }
  const valid = (overrides: Record<string, unknown> = {}) => {
    const username = uniqueName();
    return { username, email: `${username}@example.cn`, password: "secret1", confirm: "secret1", ...overrides };
  };
  const rowsNamed = (username: string) =>
    testApp.database.db.select().from(users).where(eq(sql`lower(${users.username})`, username.toLowerCase()));

  it("registers a member (trimmed, case kept, password hashed) who then logs in", async () => {
    const username = `  ${uniqueName("DJ_Wang")} `;
    const email = `  Wang${seq}@Example.CN `;
    const res = await register({ username, email, password: "夜店慢摇666", confirm: "夜店慢摇666" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 1, msg: "注册成功，请登录", data: null });
    const [row] = await rowsNamed(username.trim());
    expect(row).toMatchObject({ username: username.trim(), email: email.trim(), status: 1, nickname: "" });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.passwordHash, "夜店慢摇666")).toBe(true);
    // No automatic login: no token.
    expect(res.body).not.toContain("token");
    const login = await app.inject({ method: "POST", url: "/api/user/login", payload: { account: email.toLowerCase(), password: "夜店慢摇666" }, remoteAddress: freshIp() });
    expect(login.json()).toMatchObject({ code: 1, data: { user: { username: username.trim() } } });
  });

  it("registers with the spec's fields alone (the confirmation is the form's)", async () => {
    const username = uniqueName("spec_call");
    const res = await register({ username, email: `${username}@example.cn`, password: "secret1", confirm: undefined });
    expect(res.json()).toMatchObject({ code: 1, msg: "注册成功，请登录" });
    expect(await rowsNamed(username)).toHaveLength(1);
  });

  it("refuses a username or email taken in another letter case or with spaces around", async () => {
    const first = valid();
    expect((await register(first)).json().code).toBe(1);
    const sameName = await register(valid({ username: ` ${first.username.toUpperCase()} ` }));
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toMatchObject({ code: 0, msg: "用户名已被注册" });
    const sameEmail = await register(valid({ email: `${first.email.toUpperCase()}  ` }));
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toMatchObject({ code: 0, msg: "邮箱已被注册" });
    // Both taken: the username is named first.
    const both = await register(valid({ username: first.username, email: first.email }));
    expect(both.json().msg).toBe("用户名已被注册");
    expect(await rowsNamed(first.username)).toHaveLength(1);
  });

  it("of simultaneous registrations of one name, exactly one wins", async () => {
    const name = uniqueName("race");
    const attempts = await Promise.all(
      [name, name.toUpperCase(), ` ${name} `, name.toLowerCase()].map((username, i) =>
        register({ username, email: `${name}.${i}@example.cn`, password: "secret1", confirm: "secret1" }),
      ),
    );
    const answers = attempts.map((r) => r.json());
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    for (const a of answers.filter((a) => a.code !== 1)) expect(a.msg).toBe("用户名已被注册");
    expect(await rowsNamed(name)).toHaveLength(1);

    // The same for one email under different names.
    const email = `${uniqueName("mail")}@example.cn`;
    const byEmail = await Promise.all(
      [email, email.toUpperCase(), ` ${email}`].map((address) => register(valid({ email: address }))),
    );
    expect(byEmail.filter((r) => r.json().code === 1)).toHaveLength(1);
    for (const r of byEmail.filter((r) => r.json().code !== 1)) expect(r.json().msg).toBe("邮箱已被注册");
  });

  it("checks the fields with the spec's messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [valid({ username: undefined }), "请输入用户名"],
      [valid({ username: "  " }), "请输入用户名"],
      [valid({ username: "dj" }), "用户名长度在 3 到 20 个字符"],
      [valid({ username: "d".repeat(21) }), "用户名长度在 3 到 20 个字符"],
      [valid({ username: "dj wang" }), "用户名只能包含中文、字母、数字、下划线和横线"],
      [valid({ username: "dj@wang" }), "用户名只能包含中文、字母、数字、下划线和横线"],
      [valid({ email: "" }), "请输入邮箱"],
      [valid({ email: "not-an-address" }), "请输入正确的邮箱格式"],
      [valid({ email: `${"a".repeat(250)}@example.cn` }), "请输入正确的邮箱格式"],
      [valid({ password: "", confirm: "" }), "请输入密码"],
      [valid({ password: "12345", confirm: "12345" }), "密码长度不能小于6位"],
      [valid({ password: "x".repeat(129), confirm: "x".repeat(129) }), "密码过长"],
      [valid({ confirm: "" }), "请再次输入密码"],
      [valid({ confirm: "secret2" }), "两次输入密码不一致!"],
      [valid({ captcha: "" }), "请输入验证码"],
      [valid({ username: 123 }), "请输入用户名"],
      [valid({ email: ["a@b.cn"] }), "请输入邮箱"],
    ];
    for (const [body, msg] of cases) {
      const res = await register(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code: 0, msg });
    }
    const noCaptcha = valid();
    const res = await register(noCaptcha, { solve: false });
    expect(res.json()).toMatchObject({ code: 0, msg: "请输入验证码" });
    expect(await rowsNamed(noCaptcha.username)).toHaveLength(0);
    const nonJson = await app.inject({ method: "POST", url: "/api/user/register", payload: "{", headers: { "content-type": "application/json" } });
    expect(nonJson.statusCode).toBe(400);
  });

  it("refuses a wrong, used or expired captcha with 验证码错误", async () => {
    const ip = freshIp();
    const wrongBody = valid({ captcha: "ZZZZ" });
    const wrong = await register(wrongBody, { ip });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 0, msg: "验证码错误" });
    expect(await rowsNamed(wrongBody.username)).toHaveLength(0);

    const captcha = await solveCaptcha(app, { remoteAddress: ip });
    const post = (body: object) => app.inject({ method: "POST", url: "/api/user/register", payload: body, headers: captcha.headers, remoteAddress: ip });
    expect((await post(valid({ captcha: captcha.answer }))).json().code).toBe(1);
    const reused = await post(valid({ captcha: captcha.answer }));
    expect(reused.json()).toMatchObject({ code: 0, msg: "验证码错误" });

    const late = await solveCaptcha(app, { remoteAddress: ip });
    clock.advance(CAPTCHA_TTL_MS + 1000);
    const expired = await app.inject({ method: "POST", url: "/api/user/register", payload: valid({ captcha: late.answer }), headers: late.headers, remoteAddress: ip });
    expect(expired.json()).toMatchObject({ code: 0, msg: "验证码错误" });
    // Without the cookie there is no captcha to answer.
    const fresh = await solveCaptcha(app, { remoteAddress: ip });
    const cookieless = await app.inject({ method: "POST", url: "/api/user/register", payload: valid({ captcha: fresh.answer }), remoteAddress: ip });
    expect(cookieless.json()).toMatchObject({ code: 0, msg: "验证码错误" });
  });

  it("lets one address register 10 members an hour", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await register(valid(), { ip })).json().code).toBe(1);
    const refused = await register(valid(), { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 0, msg: "注册过于频繁，请1小时后再试" });
    expect((await register(valid())).json().code).toBe(1);
    clock.advance(3600_000 + 1000);
    expect((await register(valid(), { ip })).json().code).toBe(1);
  });

  it("is in the OpenAPI document under the user tag", async () => {
    const doc = (await app.inject("/api/docs/json")).json();
    expect(doc.paths["/api/user/register"].post.tags).toEqual(["user"]);
  });
});
