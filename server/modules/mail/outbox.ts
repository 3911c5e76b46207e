import { appendFile, readFile, rename, stat, writeFile } from "node:fs/promises";
import { desc, lt, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/types.js";
import { outboxEmails } from "../../db/schema/index.js";

export interface OutgoingMail {
  to: string;
  /** The sender's name when MAIL_FROM does not set one: the site's title. */
  fromName?: string;
  subject: string;
  text: string;
  html?: string;
}

export interface KeptMail extends OutgoingMail {
  /** ISO time the mail was kept. */
  createdAt: string;
}

/** Kept mails older than this are dropped when a new one arrives: a code is good for minutes. */
const KEEP_DAYS = 7;

/** SQL of the outbox table: mails kept when no SMTP server is configured. */
export function outboxRepo(db: AppDatabase) {
  return {
    async insert(mail: OutgoingMail, now: Date): Promise<void> {
      await db.insert(outboxEmails).values({ toAddress: mail.to, subject: mail.subject, textBody: mail.text, htmlBody: mail.html ?? null });
      await db.delete(outboxEmails).where(lt(outboxEmails.createdAt, new Date(now.getTime() - KEEP_DAYS * 86_400_000)));
    },

    /** The newest mails first, optionally only those to one address (any letter case). */
    async latest({ limit = 10, to }: { limit?: number; to?: string } = {}): Promise<KeptMail[]> {
      const rows = await db
        .select()
        .from(outboxEmails)
        .where(to ? sql`lower(${outboxEmails.toAddress}) = ${to.trim().toLowerCase()}` : undefined)
        .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
        .limit(limit);
      return rows.map((r) => ({
        to: r.toAddress,
        subject: r.subject,
        text: r.textBody,
        html: r.htmlBody ?? undefined,
        createdAt: r.createdAt.toISOString(),
      }));
    },
  };
}

/** The mirror's file name inside DATA_DIR. */
export const OUTBOX_MIRROR_FILE = "outbox.jsonl";

/** Mails the mirror file keeps: enough for anyone finishing a reset, never a growing file. */
const MIRROR_KEEP = 50;
const MIRROR_MAX_BYTES = 256 * 1024;

/**
 * A copy of the outbox as JSON lines in DATA_DIR. The embedded database (PGlite) allows one
 * process, so while the server runs `npm run outbox` cannot open it: it reads this file then
 * (ADR 0018). Readable by the server's user only, like the database files beside it.
 */
export function outboxMirror(file: string) {
  let queue: Promise<void> = Promise.resolve();
  async function append(mail: KeptMail) {
    await appendFile(file, `${JSON.stringify(mail)}\n`, { mode: 0o600 });
    if ((await stat(file)).size > MIRROR_MAX_BYTES) {
      const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean).slice(-MIRROR_KEEP);
      const tmp = `${file}.tmp`;
      await writeFile(tmp, `${lines.join("\n")}\n`, { mode: 0o600 });
      await rename(tmp, file);
    }
  }
  return {
    file,
    /** Appends one mail; appends of one process never interleave. */
    append(mail: KeptMail): Promise<void> {
      const next = queue.then(() => append(mail));
      queue = next.catch(() => undefined);
      return next;
    },
    /** The newest mails first (none when the file does not exist yet). */
    async latest({ limit = 10, to }: { limit?: number; to?: string } = {}): Promise<KeptMail[]> {
      let content: string;
      try {
        content = await readFile(file, "utf8");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw err;
      }
      const wanted = to?.trim().toLowerCase();
      const mails: KeptMail[] = [];
      for (const line of content.split("\n")) {
        if (!line) continue;
        try {
          mails.push(JSON.parse(line) as KeptMail);
        } catch {
          // A line cut short by a crash: skip it.
        }
      }
      return mails
        .filter((m) => !wanted || m.to.toLowerCase() === wanted)
        .reverse()
        .slice(0, limit);
    },
  };
}

export type OutboxMirror = ReturnType<typeof outboxMirror>;

/** The mails as a person reads them in a terminal: newest first, each with its full text. */
export function formatOutbox(mails: KeptMail[], source: string): string {
  if (mails.length === 0) return `发件箱为空 (no mails kept in ${source})\n`;
  const blocks = mails.map((m) =>
    [`时间: ${new Date(m.createdAt).toLocaleString("zh-CN", { timeZone: "Asia/Shanghai", hour12: false })}`, `收件人: ${m.to}`, `主题: ${m.subject}`, "", m.text.trimEnd()].join(
      "\n",
    ),
  );
  return `${mails.length} mail(s) from ${source}, newest first\n\n${blocks.join(`\n\n${"-".repeat(40)}\n\n`)}\n`;
}
