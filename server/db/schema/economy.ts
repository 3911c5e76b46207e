import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, idColumn, oneOf } from "./columns.js";
import { userRef } from "./refs.js";

/**
 * Why a balance changed (ADR 0061). `opening`: the balance a member had before the ledger
 * existed (migration 0020); `admin_set`: the back office's edit of the balance itself.
 */
export const COIN_REASONS = ["opening", "checkin", "download", "vip", "admin_grant", "admin_deduct", "admin_set"] as const;
export type CoinReason = (typeof COIN_REASONS)[number];

/**
 * Every change of `users.coins`, one row each, written in the same transaction as the change:
 * a member's balance is always the sum of their rows (ADR 0061). Item and admin ids are kept as
 * plain numbers: the history stays when the suite or the admin is deleted.
 */
export const coinLedger = pgTable(
  "coin_ledger",
  {
    id: idColumn(),
    userId: userRef(),
    amount: integer("amount").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    reason: text("reason", { enum: COIN_REASONS }).notNull(),
    /** What the member reads in 收支明细 (每日签到（连续3天）, 下载《…》…). */
    note: text("note").notNull().default(""),
    itemId: integer("item_id"),
    adminId: integer("admin_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("coin_ledger_user_idx").on(t.userId, t.id),
    oneOf("coin_ledger_reason_check", t.reason, COIN_REASONS),
    check("coin_ledger_amount_check", sql`${t.amount} <> 0`),
    check("coin_ledger_balance_check", sql`${t.balanceAfter} >= 0`),
  ],
);

/** One check-in per member and China day: the primary key makes simultaneous ones pay once. */
export const userCheckins = pgTable(
  "user_checkins",
  {
    userId: userRef(),
    /** The calendar day in China (lib/china-day.ts). */
    day: date("day", { mode: "string" }).notNull(),
    /** Consecutive days up to this one, this one included. */
    streak: integer("streak").notNull(),
    coins: integer("coins").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "user_checkins_pk", columns: [t.userId, t.day] }),
    check("user_checkins_streak_check", sql`${t.streak} >= 1`),
    check("user_checkins_coins_check", sql`${t.coins} > 0`),
  ],
);
