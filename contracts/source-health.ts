import { z } from "zod";

/** The canary's verdict (ADR 0049): ok, outage (站点故障), blocked (被拦截), drift (页面改版). */
export const canaryStateSchema = z.enum(["ok", "outage", "blocked", "drift"]);
export type CanaryStateName = z.infer<typeof canaryStateSchema>;

/** A source's last canary run: when, its state since when, its last ok, and each check. */
export const sourceCanarySchema = z.object({
  at: z.string().describe("ISO 8601: when the last run ended"),
  state: canaryStateSchema,
  since: z.string().describe("ISO 8601: since when the source is in this state"),
  lastOkAt: z.string().nullable(),
  failingStep: z.string().nullable(),
  checks: z.array(
    z.object({
      name: z.string().describe("search-ascii, search-chinese, list-1, list-2, play, media"),
      ok: z.boolean(),
      state: z.enum(["ok", "outage", "blocked", "drift", "skipped"]),
      detail: z.string(),
    }),
  ),
});
export type SourceCanaryAnswer = z.infer<typeof sourceCanarySchema>;

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
  /** The last canary run, null before the first. */
  canary: sourceCanarySchema.nullable(),
});
export const sourceHealthListSchema = z.object({ sources: z.array(sourceHealthSchema) });
export type SourceHealthAnswer = z.infer<typeof sourceHealthSchema>;

/** POST /api/pandaadmin/sources/{code}/canary: the run's result. */
export const sourceCanaryRunSchema = z.object({ code: z.string(), canary: sourceCanarySchema });
