import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profilePaths as paths } from "@contracts/account-profile";
import { openDatabase, openPostgresDatabase } from "../../db/open.js";
import { systemClock } from "../../lib/clock.js";
import { captureLog } from "../../testing/log-capture.js";
import { codeInMail, lastOutboxMail } from "../../testing/mail-codes.js";
import { startSmtpSink } from "../../testing/smtp-sink.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import {
  createEmptyPostgresDatabase,
  dropPostgresDatabase,
  testAdminUrl,
  testEngines,
  withDatabase,
} from "../../testing/test-db.js";
import { createTestAdmin } from "../../testing/admins.js";
import { createTestUser } from "../../testing/users.js";
import { createMailer } from "./mailer.js";
import { OUTBOX_MIRROR_FILE, outboxMirror } from "./outbox.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const run = promisify(execFile);

/** `npm run outbox` as a person runs it (tsx scripts/outbox.ts), with the given environment. */
async function npmRunOutbox(env: Record<string, string>, args: string[] = []): Promise<string> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/outbox.ts", ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    timeout: 60_000,
  });
  return stdout;
}

const SUBJECT = "【DJ搜索引擎网】找回密码验证码";

describe.each(testEngines())("mail through a real SMTP server on %s", (engine) => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let testApp: TestApp;
  const log = captureLog("info");

  beforeAll(async () => {
    sink = await startSmtpSink();
    testApp = await createTestApp(engine, { env: { SMTP_URL: sink.url, MAIL_FROM: '"DJ搜索引擎网" <codes@dj.example.cn>' }, logger: log.logger });
  });
  afterAll(async () => {
    await testApp?.close();
    await sink?.close();
  });

  it("delivers the code mail with its Chinese subject as an encoded-word and a UTF-8 body; the code resets the password", async () => {
    const { app } = testApp;
    expect(app.services.mailer.via).toBe("smtp");
    const member = await createTestUser(app);
    const res = await app.inject({ method: "POST", url: paths.sendCode, payload: { email: member.email, event: "resetpwd" } });
    expect(res.json()).toMatchObject({ code: 1, msg: "验证码已发送" });

    const mail = sink.mails.find((m) => m.to.includes(member.email));
    expect(mail).toBeDefined();
    // On the wire the subject is 7-bit: RFC 2047 encoded-words, no raw UTF-8 bytes.
    expect(mail!.rawSubject).toMatch(/=\?utf-8\?[BQ]\?/i);
    expect(/[^\x00-\x7f]/.test(mail!.rawSubject)).toBe(false);
    expect(mail!.subject).toBe(SUBJECT);
    expect(mail!.from).toBe("DJ搜索引擎网 <codes@dj.example.cn>");
    expect(mail!.text).toContain("您正在找回登录密码，验证码为：");
    expect(mail!.text).toContain("验证码10分钟内有效");
    const code = codeInMail(mail!.text);
    expect(code).toMatch(/^\d{6}$/);

    // Nothing is kept in the outbox when SMTP is configured.
    expect(await lastOutboxMail(app, member.email)).toBeUndefined();
    // The log names recipient and subject, never the code.
    expect(log.lines.some((l) => l.msg === "mail sent" && l.to === member.email)).toBe(true);
    expect(log.lines.some((l) => JSON.stringify(l).includes(code))).toBe(false);

    const reset = await app.inject({ method: "POST", url: paths.resetPassword, payload: { email: member.email, captcha: code, password: "viasmtp123" } });
    expect(reset.json()).toMatchObject({ code: 1, msg: "密码重置成功，请登录" });
  });

  it("without MAIL_FROM the sender is no-reply at the site's host, named by the site's title as it is now", async () => {
    const plain = await createTestApp(engine, { env: { SMTP_URL: sink.url, PUBLIC_URL: "https://dj.example.cn" } });
    try {
      const { app } = plain;
      // The super renames the site in 网站设置.
      const { headers } = await createTestAdmin(plain.database.db, { role: "super" });
      const settings = await app.services.siteSettings.get();
      const saved = await app.inject({ method: "PUT", url: "/api/pandaadmin/settings", headers, payload: { ...settings, title: "夜店DJ网" } });
      expect(saved.json()).toMatchObject({ code: 1 });
      const member = await createTestUser(app);
      const res = await app.inject({ method: "POST", url: paths.sendCode, payload: { email: member.email, event: "resetpwd" } });
      expect(res.json()).toMatchObject({ code: 1, msg: "验证码已发送" });
      await expect.poll(() => sink.mails.find((m) => m.to.includes(member.email))).toBeDefined();
      const mail = sink.mails.find((m) => m.to.includes(member.email));
      expect(mail!.from).toBe("夜店DJ网 <no-reply@dj.example.cn>");
      expect(mail!.subject).toBe("【夜店DJ网】找回密码验证码");
    } finally {
      await plain.close();
    }
  });

  it("an unreachable SMTP server: 502 验证码发送失败，请稍后重试, and the address may ask again at once", async () => {
    // A port nobody listens on.
    const dead = await createTestApp(engine, { env: { SMTP_URL: "smtp://127.0.0.1:9" } });
    try {
      const member = await createTestUser(dead.app);
      const send = () => dead.app.inject({ method: "POST", url: paths.sendCode, payload: { email: member.email, event: "resetpwd" } });
      for (let i = 0; i < 2; i++) {
        const res = await send();
        expect(res.statusCode).toBe(502);
        expect(res.json()).toMatchObject({ code: 0, msg: "验证码发送失败，请稍后重试" });
      }
      // The undelivered code is not left behind to be guessed.
      const reset = await dead.app.inject({ method: "POST", url: paths.resetPassword, payload: { email: member.email, captcha: "123456", password: "whatever1" } });
      expect(reset.json().msg).toBe("请先获取验证码");
    } finally {
      await dead.close();
    }
  });
});

describe.each(testEngines())("the outbox without SMTP_URL on %s", (engine) => {
  let testApp: TestApp;
  const log = captureLog("info");

  beforeAll(async () => {
    testApp = await createTestApp(engine, { logger: log.logger });
  });
  afterAll(() => testApp?.close());

  it("keeps the mail in outbox_emails and DATA_DIR/outbox.jsonl; the log says where, without the code", async () => {
    const { app } = testApp;
    expect(app.services.mailer.via).toBe("outbox");
    const member = await createTestUser(app);
    await app.inject({ method: "POST", url: paths.sendCode, payload: { email: member.email, event: "resetpwd" } });
    const mail = await lastOutboxMail(app, member.email);
    expect(mail).toMatchObject({ to: member.email, subject: SUBJECT });
    const code = codeInMail(mail.text);

    const line = log.lines.find((l) => l.to === member.email);
    expect(line).toMatchObject({ level: 30, subject: SUBJECT });
    expect(line?.msg).toContain("npm run outbox");
    expect(log.lines.some((l) => JSON.stringify(l).includes(code))).toBe(false);

    const mirror = await readFile(path.join(testApp.dataDir, OUTBOX_MIRROR_FILE), "utf8");
    expect(JSON.parse(mirror.trim().split("\n").at(-1)!)).toMatchObject({ to: member.email, subject: SUBJECT });
  });
});

describe("npm run outbox", () => {
  it("prints the newest mails of the embedded database, or of its copy while the server holds the database", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "djoutbox-"));
    try {
      const handle = await openDatabase({ dataDir });
      const mailer = createMailer({
        from: "x@example.cn",
        db: handle.db,
        logger: { info() {}, error() {} },
        clock: systemClock,
        mirror: outboxMirror(path.join(dataDir, OUTBOX_MIRROR_FILE)),
      });
      await mailer.send({ to: "older@example.cn", subject: "【DJ搜索引擎网】较早的邮件", text: "验证码为：111111" });
      await mailer.send({ to: "fan@example.cn", subject: SUBJECT, text: "您好，\n\n您正在找回登录密码，验证码为：482913\n" });

      // The database is open (locked) here, as it is while the server runs: the copy is read.
      const whileRunning = await npmRunOutbox({ DATA_DIR: dataDir });
      expect(whileRunning).toContain("outbox.jsonl (the running server holds the embedded database)");
      expect(whileRunning).toContain(`主题: ${SUBJECT}`);
      expect(whileRunning).toContain("收件人: fan@example.cn");
      expect(whileRunning).toContain("验证码为：482913");
      expect(whileRunning.indexOf("482913")).toBeLessThan(whileRunning.indexOf("111111"));
      await handle.close();

      // Server stopped: the database itself; --to picks one recipient.
      const stopped = await npmRunOutbox({ DATA_DIR: dataDir }, ["--to", "FAN@example.cn"]);
      expect(stopped).toContain(`the embedded database in ${dataDir}`);
      expect(stopped).toContain("验证码为：482913");
      expect(stopped).not.toContain("111111");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(testEngines().includes("postgres"))("reads PostgreSQL when DATABASE_URL is set", async () => {
    const name = await createEmptyPostgresDatabase();
    const url = withDatabase(testAdminUrl(), name);
    const dataDir = await mkdtemp(path.join(tmpdir(), "djoutbox-"));
    try {
      const handle = await openPostgresDatabase(url, { poolMax: 2 });
      const mailer = createMailer({ from: "x@example.cn", db: handle.db, logger: { info() {}, error() {} }, clock: systemClock });
      await mailer.send({ to: "pg@example.cn", subject: SUBJECT, text: "验证码为：735102" });
      const out = await npmRunOutbox({ DATABASE_URL: url, DATA_DIR: dataDir });
      await handle.close();
      expect(out).toContain("PostgreSQL (DATABASE_URL)");
      expect(out).toContain(`主题: ${SUBJECT}`);
      expect(out).toContain("验证码为：735102");
    } finally {
      await dropPostgresDatabase(name);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
