import { z } from "zod";
import { adminTableQuerySchema } from "./admin-table";

/**
 * The back office's collected data (issue 11, ADR 0024): processing collected items into the
 * catalogue, deleting them, and their table.
 */

export const COLLECT_BATCH_MAX = 100;

export const collectedMessages = {
  badIds: "请选择要处理的采集数据",
  tooManyIds: `一次最多处理 ${COLLECT_BATCH_MAX} 条`,
  missing: "采集数据不存在",
  unknownSource: "未知来源",
  noSourceId: "缺少来源编号",
  failed: "处理失败",
  processed: "处理完成",
  deleted: "删除成功",
  badStatus: "状态只能是 0 或 1",
} as const;
const m = collectedMessages;

const id = z.number({ error: m.badIds }).int({ error: m.badIds }).positive({ error: m.badIds }).max(2_147_483_647, { error: m.badIds });

/** POST /api/pandaadmin/collect/process and /collect/delete. */
export const collectIdsBodySchema = z.object({
  ids: z
    .array(id, { error: m.badIds })
    .min(1, { error: m.badIds })
    .max(COLLECT_BATCH_MAX, { error: m.tooManyIds })
    .describe(`采集数据编号, 1 到 ${COLLECT_BATCH_MAX} 个`),
});

/** One id's outcome: the item it created or updated, or why it could not. */
export const processOutcomeSchema = z.object({
  id: z.number().int(),
  /** The suite or single (ours) now standing for it; null when it failed. */
  itemId: z.number().int().nullable(),
  /** created: a new item; updated: an item that already stood for that source and id. */
  action: z.enum(["created", "updated"]).nullable(),
  /** Why it failed (Chinese), null on success. */
  error: z.string().nullable(),
});
export type ProcessOutcome = z.infer<typeof processOutcomeSchema>;

export const processResultSchema = z.object({
  results: z.array(processOutcomeSchema),
  processed: z.number().int(),
  failed: z.number().int(),
});

export const deleteResultSchema = z.object({
  /** The ids that were deleted (unknown ids are left out). */
  deleted: z.array(z.number().int()),
});

/** One row of the collected-data table (the spec's columns plus the collector's fields). */
export const collectedRowSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  source: z.string(),
  /** Unix seconds. */
  createtime: z.number().int(),
  status: z.enum(["0", "1"]),
  status_text: z.string(),
  source_url: z.string(),
  source_id: z.string().nullable(),
  artist: z.string().nullable(),
  cover: z.string().nullable(),
  kind: z.enum(["mix", "single"]).nullable(),
  playtype: z.enum(["mp3", "mp4"]),
  source_category: z.string().nullable(),
  source_category_name: z.string().nullable(),
  duration: z.number().int().nullable(),
  size: z.number().int().nullable(),
  chart_positions: z.record(z.string(), z.number()),
  item_id: z.number().int().nullable(),
  /** Unix seconds, null while pending. */
  processtime: z.number().int().nullable(),
  last_seen: z.number().int().nullable(),
});
export type CollectedRow = z.infer<typeof collectedRowSchema>;

export const collectedTableSchema = z.object({ total: z.number().int(), rows: z.array(collectedRowSchema) });

/** GET /api/pandaadmin/collect/index (the back office's table conventions, ADMIN-API.md). */
export const collectedIndexQuerySchema = adminTableQuerySchema.extend({
  status: z.enum(["all", "0", "1"], { error: m.badStatus }).optional().describe("all 全部, 0 未处理, 1 已处理"),
});
export type CollectedIndexQuery = z.infer<typeof collectedIndexQuerySchema>;
