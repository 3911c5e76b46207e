import { z } from "zod";
import { chartSideSchema } from "./charts";
import { catalogueItemSchema } from "./catalogue-item";

export const CATEGORY_PAGE_SIZE = 10;
export const CATEGORY_PAGE_MAX = 1000;

export const categoryMessages = {
  missing: "分类不存在",
  badPage: "页码必须是1到1000之间的整数",
  badFilter: "排序方式只能是 new（最新）或 hot（最热）",
} as const;

/**
 * `GET /api/forntend/getsort`: diyname (a trailing .html is stripped), page, filter
 * (new = latest first, the default; hot = most viewed first).
 */
export const getSortQuerySchema = z.object({
  diyname: z.string({ error: categoryMessages.missing }).max(100, { error: categoryMessages.missing }),
  page: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ error: categoryMessages.badPage })
      .int({ error: categoryMessages.badPage })
      .min(1, { error: categoryMessages.badPage })
      .max(CATEGORY_PAGE_MAX, { error: categoryMessages.badPage })
      .default(1),
  ),
  filter: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(["new", "hot"], { error: categoryMessages.badFilter }).default("new"),
  ),
});
export type GetSortQuery = z.output<typeof getSortQuerySchema>;

export const categoryPageSchema = z.object({
  title: z.string(),
  keywords: z.string(),
  description: z.string(),
  categoryname: z.string(),
  cidurl: z.string(),
  /** 2: list in "latest" style; otherwise "recommend" style. */
  model_id: z.number().int(),
  list: z.array(catalogueItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  side: chartSideSchema,
});
export type CategoryPage = z.infer<typeof categoryPageSchema>;
