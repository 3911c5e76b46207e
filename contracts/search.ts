import { z } from "zod";
import { catalogueItemSchema, hitPlaceSchema } from "./catalogue-item";
import { SEARCH_KEYWORD_MAX, SEARCH_PAGE_MAX, SEARCH_PAGE_SIZE_MAX, searchMessages } from "./search-texts";

export * from "./search-texts";

/** Query strings arrive as text: "" and absent both mean "not given". */
const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

const intParam = (max: number, message: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: message })
      .regex(/^\d{1,7}$/, { error: message })
      .transform(Number)
      .pipe(z.number().int({ error: message }).min(1, { error: message }).max(max, { error: message }))
      .optional(),
  );

/** GET /api/forntend/indexsearch (spec section 7). */
export const searchQuerySchema = z.object({
  keyword: z
    .string({ error: searchMessages.keywordRequired })
    .trim()
    .min(1, { error: searchMessages.keywordRequired })
    .max(SEARCH_KEYWORD_MAX, { error: searchMessages.keywordTooLong })
    // Control characters (NUL cannot even be stored in PostgreSQL text) are never typed by users.
    .regex(/^[^\p{Cc}]*$/u, { error: searchMessages.keywordInvalid })
    .describe("搜索关键词: 中文、拼音、拼音首字母 (zjl) 或英文"),
  page: intParam(SEARCH_PAGE_MAX, searchMessages.badPage).describe("页码, 从 1 开始"),
  /** The original site's name for the page size; `pageSize` wins when both are given. */
  limit: intParam(SEARCH_PAGE_SIZE_MAX, searchMessages.badPageSize).describe("每页条数 (默认 5)"),
  pageSize: intParam(SEARCH_PAGE_SIZE_MAX, searchMessages.badPageSize).describe("每页条数, 同 limit"),
  channelid: z.preprocess(
    blankToUndefined,
    z
      .string({ error: searchMessages.badChannel })
      .regex(/^[a-z0-9_-]{1,20}$/, { error: searchMessages.badChannel })
      .optional()
      .describe("来源站点代码 (djuu, 172minx, vvvdj, local); 空 = 全部"),
  ),
  type: z.preprocess(
    blankToUndefined,
    z.enum(["mp3", "mp4"], { error: searchMessages.badType }).default("mp3").describe("mp3 (音频) 或 mp4 (视频)"),
  ),
  filter: z.preprocess(
    blankToUndefined,
    z.enum(["mix", "single"], { error: searchMessages.badFilter }).optional().describe("mix 套曲 / single 单曲; 空 = 全部"),
  ),
  /** Accepted for compatibility with the original client; no meaning yet. */
  specify: z.string().max(50).optional().describe("兼容参数, 暂不使用"),
});
export type SearchQueryInput = z.input<typeof searchQuerySchema>;
export type SearchQueryParsed = z.output<typeof searchQuerySchema>;


export const searchResultSchema = z.object({
  list: z.array(catalogueItemSchema),
  /** Number of hits; when `capped`, at least this many (the count stops early on common keywords). */
  total: z.number().int(),
  capped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Providers that failed or timed out; the others' results are still answered. */
  errors: z.array(z.object({ source: z.string(), msg: z.string() })),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/**
 * GET /api/forntend/indexsearch/stream (ADR 0050): Server-Sent Events, one `event: source` per
 * source asked (the catalogue, `local`, first), then `event: done`. Each source's `list` is its
 * hits ranked, without those that repeat a hit sent before: shown after what is shown already.
 */
export const searchStreamSourceSchema = z.object({
  source: z.string(),
  /** Shown name of the source (本站, DJUU…). */
  name: z.string(),
  list: z.array(catalogueItemSchema),
  total: z.number().int(),
  capped: z.boolean(),
  /** Why this source has no hits: 搜索失败, 搜索超时, 源站暂时不可用. */
  error: z.string().optional(),
  /** Not asked: the source cannot serve this query, or it is resting after failures (then with `error`). */
  skipped: z.boolean().optional(),
  /** On the first event only: every source of this search, in order (the page shows 搜索中 for those not yet in). */
  sources: z.array(z.object({ source: z.string(), name: z.string() })).optional(),
  /**
   * Hits shown before (by their `source` and `id`) that this source also found (ADR 0052): each
   * shown hit's places now, the fastest first. The page sets them on that row and moves nothing.
   */
  places: z.array(z.object({ source: z.string(), id: z.union([z.number().int(), z.string()]), places: z.array(hitPlaceSchema) })).optional(),
});
export type SearchStreamSource = z.infer<typeof searchStreamSourceSchema>;

export const searchStreamDoneSchema = z.object({
  total: z.number().int(),
  capped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
  errors: z.array(z.object({ source: z.string(), msg: z.string() })),
  /** 搜索失败 when every source asked failed. */
  error: z.string().optional(),
});
export type SearchStreamDone = z.infer<typeof searchStreamDoneSchema>;
