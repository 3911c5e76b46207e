import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { EmailCodeEvent } from "@contracts/account-profile";
import type { AppDatabase } from "../../db/types.js";
import { emailCodes } from "../../db/schema/index.js";

export type EmailCodeRow = typeof emailCodes.$inferSelect;

/** SQL of `email_codes`: one row per code sent, the code itself only as a salted hash. */
export function emailCodeRepo(db: AppDatabase) {
  const sameAddress = (email: string) => sql`lower(${emailCodes.email}) = ${email.toLowerCase()}`;
  return {
    async insert(row: { email: string; event: EmailCodeEvent; codeHash: string; expiresAt: Date; ip: string }): Promise<number> {
      const [inserted] = await db.insert(emailCodes).values(row).returning({ id: emailCodes.id });
      return inserted.id;
    },

    /** The newest code sent to the address for the event: an older one is superseded. */
    async latest(email: string, event: EmailCodeEvent): Promise<EmailCodeRow | undefined> {
      const [row] = await db
        .select()
        .from(emailCodes)
        .where(and(sameAddress(email), eq(emailCodes.event, event)))
        .orderBy(desc(emailCodes.createdAt), desc(emailCodes.id))
        .limit(1);
      return row;
    },

    /**
     * Counts a wrong try in one statement (concurrent wrong tries each count); the new count,
     * or undefined when the code was dead already (used or out of tries).
     */
    async addWrongTry(id: number, maxTries: number): Promise<number | undefined> {
      const [row] = await db
        .update(emailCodes)
        .set({ attempts: sql`${emailCodes.attempts} + 1` })
        .where(and(eq(emailCodes.id, id), isNull(emailCodes.usedAt), lt(emailCodes.attempts, maxTries)))
        .returning({ attempts: emailCodes.attempts });
      return row?.attempts;
    },

    /** Marks a live code used; false when another request used it first (single use). */
    async markUsed(id: number, now: Date, maxTries: number): Promise<boolean> {
      const rows = await db
        .update(emailCodes)
        .set({ usedAt: now })
        .where(and(eq(emailCodes.id, id), isNull(emailCodes.usedAt), lt(emailCodes.attempts, maxTries), gt(emailCodes.expiresAt, now)))
        .returning({ id: emailCodes.id });
      return rows.length === 1;
    },

    async delete(id: number): Promise<void> {
      await db.delete(emailCodes).where(eq(emailCodes.id, id));
    },

    /** Drops codes long past their expiry (the table only ever holds recent ones). */
    async pruneExpired(before: Date): Promise<void> {
      await db.delete(emailCodes).where(lt(emailCodes.expiresAt, before));
    },
  };
}
