import { z } from "zod";
import { coinAmountField, coinReasonField } from "./economy-fields";
import { economyMessages as m, VIP_PLAN_CODES } from "./economy-texts";

export * from "./economy-texts";

/** The member's purse after a call: balance and VIP end (Unix seconds, null: never VIP). */
export const walletSchema = z.object({
  coins: z.number().int(),
  vipUntil: z.number().int().nullable(),
  /** Checked in today (China day). */
  checkedIn: z.boolean(),
  /** The streak counted today, or the one today's check-in would continue (0: none). */
  streak: z.number().int(),
});
export type Wallet = z.infer<typeof walletSchema>;

/** `POST /api/user/checkin`: the balance after it, what it gave, the consecutive days. */
export const checkinResultSchema = z.object({ coins: z.number().int(), gained: z.number().int(), streak: z.number().int() });
export type CheckinResult = z.infer<typeof checkinResultSchema>;

export const buyVipBodySchema = z.strictObject({
  plan: z.enum(VIP_PLAN_CODES, { error: m.badPlan }).describe("套餐: m1 (30天), m3 (90天), y1 (365天)"),
});
export const buyVipResultSchema = z.object({ coins: z.number().int(), vipUntil: z.number().int(), charged: z.number().int(), days: z.number().int() });
export type BuyVipResult = z.infer<typeof buyVipResultSchema>;

/** One row of 收支明细. */
export const coinLogEntrySchema = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  balance: z.number().int(),
  reason: z.string(),
  reason_text: z.string(),
  note: z.string(),
  item_id: z.number().int().nullable(),
  createtime: z.number().int(),
});
export type CoinLogEntry = z.infer<typeof coinLogEntrySchema>;

/** `POST /api/pandaadmin/users/:id/coins`: a grant (> 0) or a deduction (< 0) with its reason. */
export const adminCoinsBodySchema = z.strictObject({ amount: coinAmountField, reason: coinReasonField });
export type AdminCoinsBody = z.infer<typeof adminCoinsBodySchema>;
