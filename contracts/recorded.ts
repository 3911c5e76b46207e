import { z } from "zod";
import { recordedMessages as messages } from "./recorded-texts";

export * from "./recorded-texts";

/** Recorded answers of the source sites (issue 22, ADR 0051): kept, listed, replayed. */

const SOURCE_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/u;
export const recordedSourceSchema = z.string().trim().regex(SOURCE_PATTERN, messages.badSource);
export const recordedIdParamsSchema = z.object({ id: z.coerce.number({ error: messages.badId }).int(messages.badId).positive(messages.badId).max(2_147_483_647, messages.badId) });
export const recordedListQuerySchema = z.object({ source: recordedSourceSchema });

export const recordedCallSchema = z.object({ method: z.string(), args: z.array(z.unknown()) });

export const recordedAnswerSchema = z.object({
  id: z.number(),
  source: z.string(),
  url: z.string(),
  status: z.number(),
  headers: z.record(z.string(), z.string()),
  bytes: z.number(),
  sha256: z.string(),
  reason: z.string(),
  call: recordedCallSchema.nullable(),
  at: z.string(),
});
export type RecordedAnswerView = z.infer<typeof recordedAnswerSchema>;

export const recordedListSchema = z.object({
  answers: z.array(recordedAnswerSchema),
  /** Bounds per source: answers kept and bytes of their bodies. */
  limits: z.object({ count: z.number(), bytes: z.number() }),
  sources: z.array(z.object({ source: z.string(), count: z.number(), bytes: z.number() })),
});

/** An answer a try got, waiting to be saved (`id` names it for 保存为样本). */
export const trialAnswerSchema = z.object({ id: z.number().nullable(), url: z.string(), status: z.number(), bytes: z.number(), call: z.string(), error: z.string().nullable() });
export type TrialAnswerView = z.infer<typeof trialAnswerSchema>;

export const recordedDeletedSchema = z.object({ id: z.number() });

/** What one reading extracted from an answer. */
export const extractionSchema = z.object({ version: z.string(), count: z.number(), titles: z.array(z.string()), error: z.string().nullable() });
export type Extraction = z.infer<typeof extractionSchema>;

export const replayRowSchema = z.object({
  answer: recordedAnswerSchema,
  /** The version in use (null for a built-in, which has one parser). */
  old: extractionSchema.nullable(),
  new: extractionSchema,
});
export type ReplayRow = z.infer<typeof replayRowSchema>;
export const replayAnswerSchema = z.object({ source: z.string(), rows: z.array(replayRowSchema) });
export type ReplayAnswer = z.infer<typeof replayAnswerSchema>;

export const pluginReplayBodySchema = z.object({ versionId: z.number({ error: messages.versionNotFound }).int({ error: messages.versionNotFound }).positive({ error: messages.versionNotFound }).optional() }).nullish();
export const pluginVersionBodySchema = z.object({ versionId: z.number({ error: messages.versionNotFound }).int({ error: messages.versionNotFound }).positive({ error: messages.versionNotFound }) });
export const pluginStagedSchema = z.object({ versionId: z.number(), version: z.string(), current: z.string() });
