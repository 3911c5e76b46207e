import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profilePaths as paths } from "@contracts/account-profile";
import { users } from "../../db/schema/index.js";
import { adjustableClock } from "../../lib/clock.js";
import { verifyPassword } from "../accounts/passwords.js";
import { lastOutboxCode, lastOutboxMail } from "../../testing/mail-codes.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser, type TestUser } from "../../testing/users.js";

let ipSeq = 0;
const nextIp = () => `10.2.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

describe.each(testEngines())("password change, email change, nickname and profile on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  const clock = adjustableClock();

  const post = (url: string, payload: object, member?: { headers: Record<string, string> }) =>
    app.inject({ method: "POST", url, payload, headers: member?.headers, remoteAddress: nextIp() });
  const answer = (res: { statusCode: number; json(): { code: number; msg: string; data: unknown } }) => ({
    status: res.statusCode,
    ...res.json(),
  });
  const row = async (id: number) => (await app.deps.database.db.select().from(users).where(eq(users.id, id)))[0];
  const isloging = (headers: Record<string, string>) => app.inject({ url: "/api/user/isloging", headers });

  beforeAll(async () => {
    testApp = await createTestApp(engine, { clock });
    app = testApp.app;
  });
  afterAll(() => testApp?.close());

  describe("change password", () => {
    it("needs the right old password; keeps the asking session and ends the member's others", async () => {
      const member = await createTestUser(app, { password: "oldpass123" });
      const otherDevice = await app.services.sessions.createUserSession(member.id);
      const stranger = await createTestUser(app);
      const change = (body: object) => post(paths.changePassword, body, member);

      expect(answer(await change({ oldpassword: "wrong-one", newpassword: "newpass123" }))).toMatchObject({ status: 400, code: 0, msg: "原密码错误" });
      expect(answer(await change({ newpassword: "newpass123" }))).toMatchObject({ status: 400, msg: "请输入原密码" });
      expect(answer(await change({ oldpassword: "oldpass123", newpassword: "12345" }))).toMatchObject({ status: 400, msg: "密码长度必须在6到30个字符之间" });
      expect(answer(await change({ oldpassword: "oldpass123", newpassword: "y".repeat(31) }))).toMatchObject({ status: 400, msg: "密码长度必须在6到30个字符之间" });
      expect(answer(await change({ oldpassword: "oldpass123", newpassword: "oldpass123" }))).toMatchObject({ status: 400, msg: "新密码不能与原密码相同" });
      expect(answer(await change({ oldpassword: "oldpass123", newpassword: 12345678 }))).toMatchObject({ status: 400 });

      expect(answer(await change({ oldpassword: "oldpass123", newpassword: "newpass123" }))).toMatchObject({ status: 200, code: 1, msg: "密码修改成功" });
      expect(await verifyPassword((await row(member.id)).passwordHash, "newpass123")).toBe(true);
      expect((await isloging(member.headers)).statusCode).toBe(200);
      expect(answer(await isloging({ authorization: `Bearer ${otherDevice}` }))).toMatchObject({ status: 401, msg: "请先登录" });
      // Another member's sessions are untouched.
      expect((await isloging(stranger.headers)).statusCode).toBe(200);
    });

    it("refuses for an hour after 10 wrong old passwords", async () => {
      const member = await createTestUser(app, { password: "oldpass123" });
      for (let i = 0; i < 10; i++) await post(paths.changePassword, { oldpassword: `nope${i}xx`, newpassword: "newpass123" }, member);
      const right = { oldpassword: "oldpass123", newpassword: "newpass123" };
      expect(answer(await post(paths.changePassword, right, member))).toMatchObject({ status: 429, msg: "原密码错误次数过多，请稍后再试" });
      clock.advance(3600_000);
      expect(answer(await post(paths.changePassword, right, member))).toMatchObject({ status: 200 });
    });
  });

  describe("change email", () => {
    /** Step 0: a code to the current address, checked; answers nothing, leaves the grant. */
    async function verifyCurrent(member: TestUser) {
      // Whatever address is typed, verifyemail goes to the member's own.
      const sent = await post(paths.sendCode, { event: "verifyemail", email: "someone-else@example.cn" }, member);
      expect(answer(sent)).toMatchObject({ status: 200, msg: "验证码已发送" });
      expect(await lastOutboxMail(app, "someone-else@example.cn")).toBeUndefined();
      expect((await lastOutboxMail(app, member.email)).subject).toBe("【DJ搜索引擎网】验证当前邮箱");
      const code = await lastOutboxCode(app, member.email);
      expect(answer(await post(paths.checkCode, { event: "verifyemail", captcha: code }, member))).toMatchObject({ status: 200, msg: "验证码正确" });
      return code;
    }

    it("verifies the current address, then the new one with its own code; the session shows the new address", async () => {
      const member = await createTestUser(app);
      const newEmail = `moved-${engine}@example.cn`;
      expect(answer(await post(paths.changeEmail, { email: newEmail, captcha: "123456" }, member))).toMatchObject({
        status: 403,
        msg: "请先验证当前邮箱",
      });
      const oldCode = await verifyCurrent(member);
      // The verifyemail code is spent by the check.
      expect(answer(await post(paths.checkCode, { event: "verifyemail", captcha: oldCode }, member))).toMatchObject({ status: 400, msg: "验证码已使用，请重新获取" });

      expect(answer(await post(paths.sendCode, { event: "changeemail", email: newEmail }, member))).toMatchObject({ status: 200 });
      expect((await lastOutboxMail(app, newEmail)).subject).toBe("【DJ搜索引擎网】绑定新邮箱验证码");
      const code = await lastOutboxCode(app, newEmail);
      const wrong = code === "000000" ? "111111" : "000000";
      expect(answer(await post(paths.checkCode, { event: "changeemail", email: newEmail, captcha: code }, member))).toMatchObject({ status: 200 });
      expect(answer(await post(paths.changeEmail, { email: newEmail, captcha: wrong }, member))).toMatchObject({ status: 400, msg: "验证码错误" });
      const done = answer(await post(paths.changeEmail, { email: ` ${newEmail} `, captcha: code }, member));
      expect(done).toMatchObject({ status: 200, code: 1, msg: "邮箱修改成功", data: { id: member.id, email: newEmail } });
      expect((await row(member.id)).email).toBe(newEmail);
      expect((await isloging(member.headers)).json().data.email).toBe(newEmail);
      // The verification was for one change only.
      expect(answer(await post(paths.changeEmail, { email: "again@example.cn", captcha: code }, member))).toMatchObject({ status: 403, msg: "请先验证当前邮箱" });
    });

    it("refuses a taken address, the current one, an expired verification, and a code of another address", async () => {
      const member = await createTestUser(app);
      const other = await createTestUser(app);
      // Before the current address is verified no code goes anywhere: not even to a free address.
      const free = `free-${engine}@example.cn`;
      expect(answer(await post(paths.sendCode, { event: "changeemail", email: free }, member))).toMatchObject({ status: 403, msg: "请先验证当前邮箱" });
      expect(await lastOutboxMail(app, free)).toBeUndefined();

      await verifyCurrent(member);
      expect(answer(await post(paths.sendCode, { event: "changeemail", email: other.email.toUpperCase() }, member))).toMatchObject({ status: 409, msg: "该邮箱已被使用" });
      expect(answer(await post(paths.sendCode, { event: "changeemail", email: member.email }, member))).toMatchObject({ status: 400, msg: "新邮箱不能与当前邮箱相同" });
      const a = `a-${engine}@example.cn`;
      const b = `b-${engine}@example.cn`;
      await post(paths.sendCode, { event: "changeemail", email: a }, member);
      await post(paths.sendCode, { event: "changeemail", email: b }, member);
      // a's code does not open b.
      const codeA = await lastOutboxCode(app, a);
      const codeB = await lastOutboxCode(app, b);
      if (codeA !== codeB) expect(answer(await post(paths.changeEmail, { email: b, captcha: codeA }, member))).toMatchObject({ status: 400, msg: "验证码错误" });
      expect(answer(await post(paths.changeEmail, { email: other.email, captcha: codeB }, member))).toMatchObject({ status: 409, msg: "该邮箱已被使用" });

      // Another member can neither check nor use (nor burn) a code this member asked for.
      const intruder = await createTestUser(app);
      await verifyCurrent(intruder);
      expect(answer(await post(paths.checkCode, { event: "changeemail", email: b, captcha: "000000" }, intruder))).toMatchObject({ status: 400, msg: "请先获取验证码" });
      expect(answer(await post(paths.changeEmail, { email: b, captcha: codeB }, intruder))).toMatchObject({ status: 400, msg: "请先获取验证码" });
      expect(answer(await post(paths.checkCode, { event: "changeemail", email: b, captcha: codeB }, member))).toMatchObject({ status: 200 });

      clock.advance(10 * 60_000 + 1_000);
      expect(answer(await post(paths.changeEmail, { email: b, captcha: codeB }, member))).toMatchObject({ status: 403, msg: "请先验证当前邮箱" });
      expect((await row(member.id)).email).toBe(member.email);
      expect(answer(await post(paths.changeEmail, { email: "bad", captcha: codeB }, member))).toMatchObject({ status: 400, msg: "请输入正确的邮箱格式" });
    });
  });

  describe("nickname and profile", () => {
    it("checkNicknameAvailable: free and own names are available; another member's name is not, whatever id is sent", async () => {
      const member = await createTestUser(app, { nickname: "夜店小王" });
      const other = await createTestUser(app, { nickname: "DJ阿杰" });
      const plain = await createTestUser(app, { username: `plain${engine}` });
      const check = (nickname: string, id?: number) => post(paths.checkNickname, { nickname, id }, member);

      expect(answer(await check("全新的昵称"))).toMatchObject({ status: 200, code: 1, msg: "昵称可以使用", data: { available: true } });
      expect(answer(await check("夜店小王", member.id))).toMatchObject({ status: 200, data: { available: true } });
      // Someone else's id does not make their name ours.
      expect(answer(await check("DJ阿杰", other.id))).toMatchObject({ status: 409, code: 0, msg: "昵称已被使用", data: { available: false } });
      expect(answer(await check("dj阿杰 "))).toMatchObject({ status: 409, msg: "昵称已被使用" });
      // A member without a nickname shows their username.
      expect(answer(await check(`PLAIN${engine}`))).toMatchObject({ status: 409 });
      expect(answer(await check("王"))).toMatchObject({ status: 400, msg: "长度在 2 到 20 个字符" });
      expect(answer(await check("长".repeat(21)))).toMatchObject({ status: 400, msg: "长度在 2 到 20 个字符" });
      expect(answer(await check(""))).toMatchObject({ status: 400, msg: "请输入昵称" });
      expect(plain.id).toBeGreaterThan(0);
    });

    it("updateProfile saves nickname and bio of the caller only; username, email and ids in the body change nothing", async () => {
      const member = await createTestUser(app);
      const other = await createTestUser(app, { nickname: "别人的昵称" });
      const before = await row(other.id);
      const res = answer(
        await post(
          paths.updateProfile,
          { nickname: " 慢摇达人 ", bio: "爱听<b>慢摇</b>", username: "hacker", email: "hacker@example.cn", id: other.id, coins: 9999 },
          member,
        ),
      );
      expect(res).toMatchObject({ status: 200, code: 1, msg: "保存成功", data: { id: member.id, nickname: "慢摇达人", bio: "爱听<b>慢摇</b>", username: member.username, email: member.email, coins: 0 } });
      expect(await row(other.id)).toEqual(before);
      const mine = await row(member.id);
      expect(mine).toMatchObject({ nickname: "慢摇达人", username: member.username, email: member.email, coins: 0 });
      expect((await isloging(member.headers)).json().data.nickname).toBe("慢摇达人");
    });

    it("updateProfile checks the nickname again and the lengths: 2-20 characters, bio 200", async () => {
      const member = await createTestUser(app);
      await createTestUser(app, { nickname: "已有人用" });
      const save = (body: object) => post(paths.updateProfile, body, member);
      expect(answer(await save({ nickname: "已有人用", bio: "" }))).toMatchObject({ status: 409, msg: "昵称已被使用" });
      expect(answer(await save({ nickname: "a", bio: "" }))).toMatchObject({ status: 400, msg: "长度在 2 到 20 个字符" });
      expect(answer(await save({ nickname: "好".repeat(21), bio: "" }))).toMatchObject({ status: 400, msg: "长度在 2 到 20 个字符" });
      expect(answer(await save({ nickname: "好".repeat(20), bio: "曲".repeat(200) }))).toMatchObject({ status: 200 });
      expect(answer(await save({ nickname: "好好", bio: "曲".repeat(201) }))).toMatchObject({ status: 400, msg: "个人简介不能超过200个字符" });
      expect(answer(await save({ nickname: 42, bio: "" }))).toMatchObject({ status: 400, msg: "请输入昵称" });
      expect(answer(await save({ nickname: "好好", bio: ["x"] }))).toMatchObject({ status: 400 });
      expect((await row(member.id)).bio).toBe("曲".repeat(200));
    });
  });

  it("documents every call under the user tag, with the guard's bearer scheme on member calls", async () => {
    const doc = (await app.inject("/api/docs/json")).json();
    for (const path of Object.values(paths)) {
      const op = doc.paths[path]?.post;
      expect(op, path).toBeDefined();
      expect(op.tags, path).toEqual(["user"]);
    }
    expect(doc.paths[paths.updateProfile].post.security).toEqual([{ bearer: [] }]);
    expect(doc.paths[paths.uploadAvatar].post.requestBody.content["multipart/form-data"].schema.properties.avatar).toMatchObject({ format: "binary" });
  });
});
