import { z } from "zod";

/** Collection jobs as the admin API shows them (issue 11; the back-office screen comes later). */

export const COLLECT_SOURCE_CODE = /^[a-z0-9_-]{2,32}$/u;

/** POST /api/pandaadmin/collect/start: one source, or every enabled one. */
export const collectStartBodySchema = z
  .object({
    source: z.string().regex(COLLECT_SOURCE_CODE, "来源代码格式不正确").optional(),
  })
  .strict();

export const collectJobIdParamsSchema = z.object({
  id: z.coerce.number({ message: "任务编号不正确" }).int("任务编号不正确").positive("任务编号不正确").max(2_147_483_647, "任务编号不正确"),
});

const unitSchema = z.object({
  type: z.enum(["chart", "category"]),
  /** Chart: `week:mix`; category: the site's key. */
  key: z.string(),
  /** Chart: 周榜 串烧-style text; category: the site's name. */
  name: z.string(),
  kind: z.enum(["mix", "single"]).nullable(),
  maxPages: z.number().int(),
});

export const collectJobSchema = z.object({
  id: z.number().int(),
  source: z.string(),
  trigger: z.enum(["schedule", "manual"]),
  state: z.enum(["queued", "running", "done", "failed", "cancelled"]),
  /** Lists (charts and categories) the job walks. */
  planSize: z.number().int(),
  /** The cursor: index of the list being walked (0-based; = planSize when done) and its next page. */
  unitIndex: z.number().int(),
  nextPage: z.number().int(),
  /** The list being walked, null once past the end. */
  currentUnit: unitSchema.nullable(),
  pagesDone: z.number().int(),
  itemsFound: z.number().int(),
  itemsNew: z.number().int(),
  errors: z.number().int(),
  lastError: z.string().nullable(),
  /** Times a runner took the job (more than 1: resumed after a stop). */
  attempts: z.number().int(),
  /** Held by a runner until (ISO), while running. */
  lockedUntil: z.string().nullable(),
  createdAt: z.string().describe("ISO 8601"),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});

export const collectJobPageSchema = z.object({
  unitIndex: z.number().int(),
  page: z.number().int(),
  items: z.number().int(),
  newItems: z.number().int(),
  error: z.string().nullable(),
  doneAt: z.string(),
});

export const collectStartAnswerSchema = z.object({
  /** One per source: the job queued now (`created`) or the one already queued or running. */
  jobs: z.array(z.object({ created: z.boolean(), job: collectJobSchema })),
});
export const collectJobListSchema = z.object({ jobs: z.array(collectJobSchema) });
export const collectJobDetailSchema = z.object({
  job: collectJobSchema,
  plan: z.array(unitSchema),
  pages: z.array(collectJobPageSchema),
});

export type CollectJobAnswer = z.infer<typeof collectJobSchema>;
export type CollectUnitAnswer = z.infer<typeof unitSchema>;
export type CollectJobPageAnswer = z.infer<typeof collectJobPageSchema>;
