import { SITE_NAME } from "@contracts/site";
import nodemailer from "nodemailer";
import type { AppDatabase, DbLogger } from "../../db/types.js";
import type { Clock } from "../../lib/clock.js";
import { type OutboxMirror, type OutgoingMail, outboxRepo } from "./outbox.js";

export type { OutgoingMail } from "./outbox.js";

export interface Mailer {
  /** "smtp" when SMTP_URL is set; "outbox" keeps mails in the database (and the mirror file). */
  readonly via: "smtp" | "outbox";
  /** Sends (or keeps) one mail; rejects when the SMTP server refuses it or cannot be reached. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** MAIL_FROM as given, or an address whose name is each mail's `fromName` (the site's title). */
export type MailFrom = string | { address: string };

export interface MailerOptions {
  smtpUrl?: string;
  from: MailFrom;
  db: AppDatabase;
  logger: Pick<DbLogger, "info" | "error">;
  clock: Clock;
  /** Copy of kept mails for `npm run outbox` while PGlite is locked by the server. */
  mirror?: OutboxMirror;
}

/**
 * Account mails (codes). With SMTP_URL they go through nodemailer, which writes non-ASCII
 * subjects as RFC 2047 encoded-words and bodies as UTF-8, so Chinese arrives intact. Without it
 * they are kept in `outbox_emails`, and the log says where to read them: a person running the
 * embedded default finishes a password reset with `npm run outbox`.
 */
export function createMailer({ smtpUrl, from, db, logger, clock, mirror }: MailerOptions): Mailer {
  if (smtpUrl) {
    // Short timeouts: a dead mail server must fail the request, not hold it for minutes.
    const transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      via: "smtp",
      async send(mail) {
        try {
          // nodemailer encodes a Chinese name (RFC 2047) and quotes what needs it.
          const sender = typeof from === "string" ? from : { name: mail.fromName ?? SITE_NAME, address: from.address };
          const info = await transport.sendMail({ from: sender, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
          logger.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, "mail sent");
        } catch (err) {
          logger.error({ err, to: mail.to, subject: mail.subject }, "mail not sent");
          throw err;
        }
      },
      close: () => transport.close(),
    };
  }
  const outbox = outboxRepo(db);
  return {
    via: "outbox",
    async send(mail) {
      const now = clock();
      await outbox.insert(mail, now);
      await mirror?.append({ ...mail, createdAt: now.toISOString() });
      // Never the text at info: the code is in it.
      logger.info({ to: mail.to, subject: mail.subject }, "mail kept in the outbox (no SMTP_URL), run npm run outbox to read it");
    },
    close() {},
  };
}
