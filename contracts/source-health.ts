import { z } from "zod";

/** GET /api/pandaadmin/sources/health: each external source's recent searches and its circuit breaker. */
export const sourceHealthSchema = z.object({
  code: z.string(),
  name: z.string(),
  /** closed: asked every time; open: skipped until `retryAt`; half-open: the next search probes it. */
  state: z.enum(["closed", "open", "half-open"]),
  /** Share of successful searches among the last ones kept (0..1), null before the first. */
  successRate: z.number().nullable(),
  p50Ms: z.number().int().nullable(),
  p95Ms: z.number().int().nullable(),
  lastError: z
    .object({ kind: z.string(), message: z.string(), at: z.string().describe("ISO 8601") })
    .nullable(),
  consecutiveFailures: z.number().int(),
  calls: z.number().int(),
  failures: z.number().int(),
  /** Searches answered 源站暂时不可用 at once while the breaker was open. */
  skipped: z.number().int(),
  retryAt: z.string().nullable(),
});
export const sourceHealthListSchema = z.object({ sources: z.array(sourceHealthSchema) });
export type SourceHealthAnswer = z.infer<typeof sourceHealthSchema>;
