import { z } from "zod";
import { adminTableQuerySchema } from "./admin-table";
import { SUITE_BATCH_MAX, suiteListMessages as m } from "./suite-list-texts";

/**
 * The back office's suite list (issue 12, ADR 0028): `GET /pandaadmin/cms/archives/index` in
 * the FastAdmin CMS addon's conventions (ADMIN-API.md), deletes and enable/disable.
 */

export * from "./suite-list-texts";

const itemId = (error: string) => z.coerce.number({ error }).int({ error }).positive({ error }).max(2_147_483_647, { error });

export const suiteTableQuerySchema = adminTableQuerySchema.extend({
  model_id: z.coerce
    .number({ error: m.badModel })
    .int({ error: m.badModel })
    .refine((v) => v === 1 || v === 2, { error: m.badModel })
    .optional()
    .describe("内容模型: 2 套曲 (默认), 1 单曲"),
  trash: z.enum(["0", "1"], { error: m.badTrash }).optional().describe("1 回收站中的套曲; 默认 0 (未删除的)"),
});

const row = z.object({
  id: z.number().int(),
  channel_id: z.number().int().nullable(),
  model_id: z.number().int(),
  title: z.string(),
  image: z.string(),
  diyname: z.string(),
  price: z.number().int(),
  views: z.number().int(),
  comments: z.number().int(),
  weigh: z.number().int(),
  createtime: z.number().int(),
  updatetime: z.number().int(),
  publishtime: z.number().int(),
  status: z.enum(["normal", "hidden"]),
  status_text: z.string(),
  publishtime_text: z.string(),
  deletetime: z.number().int().nullable(),
  deletetime_text: z.string(),
  url: z.string(),
  channel: z.object({ name: z.string(), diyname: z.string() }).nullable(),
});

/** The bare `{total, rows}` the original's AJAX table reads. */
export const suiteTableAnswerSchema = z.object({
  total: z.number().int(),
  rows: z.array(row),
  /** A keyword matched more suites than were counted: `total` is the cap (the table shows 500+). */
  capped: z.literal(true).optional(),
});

export const suiteIdParamsSchema = z.object({ id: itemId(m.badId) });

export const suiteIdsBodySchema = z.object({
  ids: z
    .array(itemId(m.badIds), { error: m.badIds })
    .min(1, { error: m.badIds })
    .max(SUITE_BATCH_MAX, { error: m.tooManyIds })
    .describe(`套曲编号, 1 到 ${SUITE_BATCH_MAX} 个`),
});

export const suiteStatusBodySchema = suiteIdsBodySchema.extend({
  status: z.enum(["normal", "hidden"], { error: m.badStatus }).describe("normal 正常 / hidden 禁用"),
});

export const suiteIdsResultSchema = z.object({ ids: z.array(z.number().int()) });

export const suiteChannelsSchema = z.array(
  z.object({ id: z.number().int(), name: z.string(), parent_id: z.number().int().nullable(), model_id: z.number().int() }),
);
