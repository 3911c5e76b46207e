import { z } from "zod";
import { ADMIN_COINS_MAX_STEP, ADMIN_REASON_MAX, economyMessages as m } from "./economy-texts";

/**
 * The fields of an admin's grant or deduction, written once: the server's request schema
 * (./economy.ts) and the back office's dialog rules. Fields only, no object schema: the browser
 * imports this file.
 */
export const coinAmountField = z
  .number({ error: m.badAmount })
  .int({ error: m.badAmount })
  .min(-ADMIN_COINS_MAX_STEP, { error: m.badAmount })
  .max(ADMIN_COINS_MAX_STEP, { error: m.badAmount })
  .refine((n) => n !== 0, { error: m.badAmount });

export const coinReasonField = z
  .string({ error: m.reasonRequired })
  .trim()
  .min(1, { error: m.reasonRequired })
  .max(ADMIN_REASON_MAX, { error: m.reasonTooLong });
