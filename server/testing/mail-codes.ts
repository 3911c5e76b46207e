import type { FastifyInstance } from "fastify";
import { outboxRepo } from "../modules/mail/outbox.js";

/** The code in a code mail's text (codeMail: "验证码为：123456"). */
export function codeInMail(text: string): string {
  const code = /验证码为：(\d{4,6})/.exec(text)?.[1];
  if (!code) throw new Error(`no code in mail: ${text}`);
  return code;
}

/** The newest mail kept in the outbox for `to` (the app runs without SMTP_URL), or undefined. */
export async function lastOutboxMail(app: FastifyInstance, to: string) {
  const [mail] = await outboxRepo(app.deps.database.db).latest({ limit: 1, to });
  return mail;
}

/** The code of the newest mail kept for `to`. */
export async function lastOutboxCode(app: FastifyInstance, to: string): Promise<string> {
  const mail = await lastOutboxMail(app, to);
  if (!mail) throw new Error(`no mail kept for ${to}`);
  return codeInMail(mail.text);
}
