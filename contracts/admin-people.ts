import { z } from "zod";
import { emailField, nicknameField } from "./account-fields";
import { adminTableAnswer } from "./admin-table";
import { adminCommentMessages as cm, adminUserMessages as um, COINS_MAX } from "./admin-people-texts";

/**
 * The back office's users and comments (issue 12): request schemas and answers. The texts the
 * browser shows live in admin-people-texts.ts (no zod there).
 */
export * from "./admin-people-texts";

const positiveId = z.coerce.number().int().min(1).max(2_147_483_647);
export const adminIdParamsSchema = z.object({ id: positiveId.describe("编号") });

export const adminUserRowSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  nickname: z.string(),
  coins: z.number().int(),
  /** Unix seconds, or null: not a VIP. */
  vip_until: z.number().int().nullable(),
  status: z.number().int(),
  status_text: z.string(),
  createtime: z.number().int(),
  downloads: z.number().int(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;
export const adminUserTableSchema = adminTableAnswer(adminUserRowSchema);

/** PATCH /api/pandaadmin/users/:id: the account fields' rules (contracts/account-fields.ts). */
export const adminUserPatchSchema = z
  .strictObject({
    nickname: nicknameField.optional(),
    email: emailField.optional(),
    coins: z.number({ error: um.coinsRange }).int({ error: um.coinsRange }).min(0, { error: um.coinsRange }).max(COINS_MAX, { error: um.coinsRange }).optional(),
    /** Unix seconds; null ends the VIP. */
    vipUntil: z
      .number({ error: um.badVipUntil })
      .int({ error: um.badVipUntil })
      .min(0, { error: um.badVipUntil })
      // Unix seconds as the tables read them (int4): up to 2038-01-19.
      .max(2_147_483_647, { error: um.badVipUntil })
      .nullable()
      .optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { error: um.nothingToChange });
export type AdminUserPatch = z.infer<typeof adminUserPatchSchema>;

export const adminUserStatusBodySchema = z.strictObject({
  status: z.union([z.literal(0), z.literal(1)], { error: um.badStatus }),
});

export const adminUserDownloadRowSchema = z.object({
  id: z.number().int(),
  item_id: z.number().int(),
  title: z.string(),
  coins: z.number().int(),
  createtime: z.number().int(),
});
export const adminUserDownloadTableSchema = adminTableAnswer(adminUserDownloadRowSchema);

export const adminCommentRowSchema = z.object({
  id: z.number().int(),
  item_id: z.number().int(),
  item_title: z.string(),
  user_id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  parent_id: z.number().int().nullable(),
  content: z.string(),
  status: z.string(),
  status_text: z.string(),
  createtime: z.number().int(),
});
export const adminCommentTableSchema = adminTableAnswer(adminCommentRowSchema);

const commentIds = z.array(positiveId, { error: cm.idsRequired }).min(1, { error: cm.idsRequired }).max(100, { error: cm.tooMany });
export const adminCommentHideBodySchema = z.strictObject({
  ids: commentIds,
  /** true hides, false shows again. */
  hidden: z.boolean({ error: cm.idsRequired }),
});
export const adminCommentDeleteBodySchema = z.strictObject({ ids: commentIds });
export const adminCommentChangedSchema = z.object({ ids: z.array(z.number().int()) });
