import { z } from "zod";
import { djListProblem } from "./djlist";
import { djListNodeSchema } from "./suite";
import {
  isSuiteUrl,
  SUITE_ARTIST_MAX,
  SUITE_PRICE_MAX,
  SUITE_TITLE_MAX,
  SUITE_URL_MAX,
  suiteFormMessages as m,
  WEB_PASSWORD_MAX,
} from "./suite-form-texts";

export * from "./suite-form-texts";

/**
 * The back office's suite (issue 12): one schema for create (POST /api/pandaadmin/suites) and
 * update (PUT …/:id). The browser form shows the same texts (suite-form-texts.ts) and the same
 * tree rules (djlist.ts) without zod.
 */

const url = (required: string | null) =>
  z
    .string({ error: required ?? m.badUrl })
    .trim()
    .max(SUITE_URL_MAX, { error: m.badUrl })
    .refine((v) => (v === "" ? required === null : isSuiteUrl(v)), { error: (i) => (i.input === "" && required ? required : m.badUrl) });

/** "" and null both mean "none" for optional text. */
const optionalText = (max: number, error: string) =>
  z
    .string({ error })
    .trim()
    .max(max, { error })
    .nullish()
    .transform((v) => (v ? v : null));

const positiveId = (error: string) => z.number({ error }).int({ error }).positive({ error }).max(2_147_483_647, { error });

/** The fields; the tree's order and time rules are added below (create) or by the service (update). */
export const suiteFormFieldsSchema = z.object({
    title: z.string({ error: m.titleRequired }).trim().min(1, { error: m.titleRequired }).max(SUITE_TITLE_MAX, { error: m.titleTooLong }),
    categoryId: positiveId(m.categoryRequired),
    artist: optionalText(SUITE_ARTIST_MAX, m.artistTooLong),
    cover: url(null).nullish().transform((v) => (v ? v : null)),
    playUrl: url(m.playUrlRequired),
    playtype: z.enum(["mp3", "mp4"], { error: m.badPlaytype }),
    kind: z.enum(["mix", "single"], { error: m.badKind }),
    durationSec: z.number({ error: m.badDuration }).int({ error: m.badDuration }).min(0, { error: m.badDuration }).max(360_000, { error: m.badDuration }).nullish().transform((v) => v ?? null),
    sizeBytes: z.number({ error: m.badDuration }).int().min(0).nullish().transform((v) => v ?? null),
    sourceSite: z.string({ error: m.siteRequired }).trim().min(1, { error: m.siteRequired }).max(64, { error: m.siteMissing }),
    vipdown: z.enum(["0", "1"], { error: m.badVipdown }),
    price: z.number({ error: m.badPrice }).int({ error: m.badPrice }).min(0, { error: m.badPrice }).max(SUITE_PRICE_MAX, { error: m.badPrice }),
    weburl: url(null).nullish().transform((v) => (v ? v : null)),
    webPassword: optionalText(WEB_PASSWORD_MAX, m.passwordTooLong),
    djlist: z.array(djListNodeSchema, { error: m.badDjlist }).max(2000, { error: m.badDjlist }),
    status: z.enum(["normal", "hidden"], { error: m.badStatus }),
    recommended: z.boolean({ error: m.badStatus }),
});

/**
 * A new suite: every field, and the tree in the public order with increasing times. An update
 * (suiteFormFieldsSchema) gets the same tree check in the service unless the tree is the one
 * stored: a suite collected or seeded before these rules can still be renamed without
 * rebuilding its tree.
 */
export const suiteFormSchema = suiteFormFieldsSchema.superRefine((form, ctx) => {
  const problem = djListProblem(form.djlist, form.durationSec);
  if (problem) ctx.addIssue({ code: "custom", path: ["djlist", ...problem.path], message: problem.message });
});
export type SuiteForm = z.output<typeof suiteFormFieldsSchema>;
export type SuiteFormInput = z.input<typeof suiteFormFieldsSchema>;

export const suiteIdParamsSchema = z.object({ id: z.coerce.number({ error: m.badId }).int({ error: m.badId }).positive({ error: m.badId }).max(2_147_483_647, { error: m.badId }) });

/** GET /api/pandaadmin/suites/:id: the form's data, plus what the form shows beside it. */
export const suiteFormDataSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  categoryId: z.number().int().nullable(),
  artist: z.string().nullable(),
  cover: z.string().nullable(),
  playUrl: z.string(),
  playtype: z.enum(["mp3", "mp4"]),
  kind: z.enum(["mix", "single"]),
  durationSec: z.number().int().nullable(),
  sizeBytes: z.number().int().nullable(),
  sourceSite: z.string(),
  vipdown: z.enum(["0", "1"]),
  price: z.number().int(),
  weburl: z.string().nullable(),
  webPassword: z.string().nullable(),
  djlist: z.array(djListNodeSchema),
  status: z.enum(["normal", "hidden"]),
  recommended: z.boolean(),
  /** The public page. */
  url: z.string(),
});
export type SuiteFormData = z.infer<typeof suiteFormDataSchema>;

/** GET /api/pandaadmin/suites/options: the form's choices. */
export const suiteFormOptionsSchema = z.object({
  categories: z.array(z.object({ id: z.number().int(), name: z.string(), parentId: z.number().int().nullable() })),
  sites: z.array(z.object({ code: z.string(), name: z.string() })),
});
export type SuiteFormOptions = z.infer<typeof suiteFormOptionsSchema>;

export const suiteSavedSchema = z.object({ id: z.number().int(), url: z.string() });

export const coverUploadedSchema = z.object({ url: z.string() });
export const mediaUploadedSchema = z.object({
  url: z.string(),
  /** Whole seconds, read from the file. */
  duration: z.number().int(),
  size: z.number().int(),
  playtype: z.enum(["mp3", "mp4"]),
});
export type MediaUploaded = z.infer<typeof mediaUploadedSchema>;

/** POST /api/pandaadmin/upload/media/chunks: a piecewise upload begins. */
export const mediaChunkStartSchema = z.object({ uploadId: z.string() });
/** PUT …/chunks/:uploadId?offset=: where the next piece starts (the bytes received so far). */
export const mediaChunkParamsSchema = z.object({ uploadId: z.string().regex(/^[0-9a-f]{20}$/, { error: m.uploadGone }) });
export const mediaChunkQuerySchema = z.object({
  offset: z.coerce.number({ error: m.chunkOffset }).int({ error: m.chunkOffset }).min(0, { error: m.chunkOffset }),
});
export const mediaChunkReceivedSchema = z.object({ received: z.number().int() });
