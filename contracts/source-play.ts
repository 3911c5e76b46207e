import { z } from "zod";

/** GET /api/forntend/source-play: which external item to play (issue 11). */
export const sourcePlayQuerySchema = z.object({
  source: z.string().min(1).max(40).describe("来源代码 (djuu, 172minx, vvvdj)"),
  id: z.string().min(1).max(200).describe("来源站点上的编号"),
});

/** GET /api/forntend/source-play/segment: an address a source's HLS playlist named, signed by us. */
export const sourceSegmentQuerySchema = sourcePlayQuerySchema.extend({
  u: z.string().min(1).max(2048).describe("分段的来源地址"),
  e: z.coerce.number().int().describe("签名到期时间 (毫秒)"),
  s: z.string().min(1).max(100).describe("签名"),
});

export type SourcePlayQuery = z.infer<typeof sourcePlayQuerySchema>;

/** Shown when an external site cannot give us the media right now. */
export const sourcePlayMessages = {
  sourceFailed: "来源站点暂时无法播放，请稍后再试",
} as const;
