import { COINS_MAX } from "@contracts/admin-people-texts";
import { and, desc, eq, sql } from "drizzle-orm";
import { coinLedger, type CoinReason, userCheckins, users } from "../../db/schema/index.js";
import { queryRows, type RowOf, selectRows } from "../../db/sql.js";
import type { AppDatabase } from "../../db/types.js";

/** The database or an open transaction. */
export type Executor = Pick<AppDatabase, "execute" | "select" | "insert" | "update" | "delete">;

/** Why and for what a balance moves: the ledger row's words and references. */
export interface CoinMove {
  reason: CoinReason;
  note: string;
  itemId?: number | null;
  adminId?: number | null;
  at: Date;
}

const LOG_ROW = {
  id: coinLedger.id,
  amount: coinLedger.amount,
  balance: coinLedger.balanceAfter,
  reason: coinLedger.reason,
  note: coinLedger.note,
  item_id: coinLedger.itemId,
  createtime: sql<number>`floor(extract(epoch from ${coinLedger.createdAt}))::int`,
};
export type CoinLogRow = RowOf<typeof LOG_ROW>;

/**
 * SQL of the member economy (ADR 0061). `users.coins` changes only through `move` (or, for the
 * back office's edit of the balance, `record` right after it): each change and its ledger row are
 * one statement pair inside the caller's transaction.
 */
export function economyRepo(db: Executor) {
  async function record(userId: number, amount: number, balanceAfter: number, move: CoinMove): Promise<void> {
    await db.insert(coinLedger).values({
      userId,
      amount,
      balanceAfter,
      reason: move.reason,
      note: move.note,
      itemId: move.itemId ?? null,
      adminId: move.adminId ?? null,
      createdAt: move.at,
    });
  }

  return {
    record,

    /**
     * Adds `amount` (negative: takes) to the balance when the result stays within 0..max (the
     * back office's COINS_MAX unless given), and
     * writes the ledger row; the new balance, or undefined when the balance would leave the range.
     */
    async move(userId: number, amount: number, move: CoinMove, max = COINS_MAX): Promise<number | undefined> {
      // Raw: the builder's update would also set updated_at (its $onUpdate); the range test and
      // the change are one statement, so simultaneous moves cannot pass it together.
      const [row] = await selectRows(db, { coins: users.coins }, (fields) =>
        sql`update ${users} set coins = coins + ${amount}
             where ${users.id} = ${userId} and coins + ${amount} >= 0 and coins + ${amount} <= ${max}
             returning ${fields}`,
      );
      if (!row) return undefined;
      await record(userId, amount, row.coins, move);
      return row.coins;
    },

    /** The member's balance and VIP end, locked until the transaction ends (a VIP purchase extends from it). */
    async lockPurse(userId: number): Promise<{ coins: number; vipUntil: Date | null } | undefined> {
      const [row] = await db.select({ coins: users.coins, vipUntil: users.vipUntil }).from(users).where(eq(users.id, userId)).for("update");
      return row;
    },

    async purse(userId: number): Promise<{ coins: number; vipUntil: Date | null } | undefined> {
      const [row] = await db.select({ coins: users.coins, vipUntil: users.vipUntil }).from(users).where(eq(users.id, userId));
      return row;
    },

    async setVipUntil(userId: number, until: Date): Promise<void> {
      await db.update(users).set({ vipUntil: until }).where(eq(users.id, userId));
    },

    /** Records today's check-in; false when the member already has one (the primary key decides between simultaneous calls). */
    async addCheckin(userId: number, day: string, streak: number, coins: number, at: Date): Promise<boolean> {
      const t = userCheckins;
      const rows = await db
        .insert(t)
        .values({ userId, day, streak, coins, createdAt: at })
        .onConflictDoNothing({ target: [t.userId, t.day] })
        .returning({ day: t.day });
      return rows.length > 0;
    },

    /** The streak of the member's check-in on `day`, 0 when there is none. */
    async streakOn(userId: number, day: string): Promise<number> {
      const [row] = await db
        .select({ streak: userCheckins.streak })
        .from(userCheckins)
        .where(and(eq(userCheckins.userId, userId), eq(userCheckins.day, day)));
      return row?.streak ?? 0;
    },

    /** The member's ledger, newest first. */
    async log(userId: number, limit: number, offset: number): Promise<{ rows: CoinLogRow[]; total: number }> {
      const mine = eq(coinLedger.userId, userId);
      const [rows, [counted]] = await Promise.all([
        db.select(LOG_ROW).from(coinLedger).where(mine).orderBy(desc(coinLedger.id)).limit(limit).offset(offset),
        db.select({ n: sql<number>`count(*)::int` }).from(coinLedger).where(mine),
      ]);
      return { rows, total: counted?.n ?? 0 };
    },

    /** Members whose balance is not the sum of their ledger rows (always none; tests and checks ask). */
    async mismatches(): Promise<{ id: number; coins: number; ledger: number }[]> {
      return queryRows(
        db,
        sql`select u.id, u.coins, coalesce(l.total, 0)::int as ledger
              from ${users} u left join (select user_id, sum(amount)::int as total from ${coinLedger} group by user_id) l on l.user_id = u.id
             where u.coins <> coalesce(l.total, 0)`,
      );
    },
  };
}

export type EconomyRepo = ReturnType<typeof economyRepo>;
