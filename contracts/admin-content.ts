import { z } from "zod";
import { adminTableAnswer, adminTableQuerySchema } from "./admin-table";
import {
  BLOCK_ITEM_NAME_MAX,
  BLOCK_NAME_MAX,
  BLOCK_POSITIONS,
  BLOCK_URL_MAX,
  BLOCK_URL_PATTERN,
  blockTexts as bt,
  CATEGORY_DIYNAME_PATTERN,
  CATEGORY_NAME_MAX,
  categoryTexts as ct,
  SEO_DESCRIPTION_MAX,
  SEO_KEYWORDS_MAX,
  SEO_TITLE_MAX,
  SITE_SETTINGS_LIMITS as L,
  siteSettingsTexts as st,
} from "./admin-content-texts";

export * from "./admin-content-texts";

/** The back office's categories, blocks and site settings (issue 12): request and answer shapes. */

const sortField = z.coerce.number({ error: ct.sortBad }).int({ error: ct.sortBad }).min(0, { error: ct.sortBad }).max(1_000_000, { error: ct.sortBad });
const text = (max: number) => z.string({ error: ct.seoTooLong }).trim().max(max, { error: ct.seoTooLong });

export const idParamSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** Drag-to-sort (ADR 0065): row `id` takes the place of row `to`; the rows between shift by one. */
export const sortMoveSchema = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
  to: z.coerce.number().int().min(1).max(2_147_483_647),
});
export type SortMove = z.infer<typeof sortMoveSchema>;

const categoryFields = {
  name: z.string({ error: ct.nameRequired }).trim().min(1, { error: ct.nameRequired }).max(CATEGORY_NAME_MAX, { error: ct.nameTooLong }),
  diyname: z.string({ error: ct.diynameRequired }).trim().min(1, { error: ct.diynameRequired }).regex(CATEGORY_DIYNAME_PATTERN, { error: ct.diynameBad }),
  sort: sortField,
  parent_id: z.coerce.number({ error: ct.parentMissing }).int({ error: ct.parentMissing }).min(1, { error: ct.parentMissing }).nullable(),
  enabled: z.boolean({ error: "启用状态无效" }),
  model_id: z.union([z.literal(1), z.literal(2)], { error: ct.modelBad }),
  seo_title: text(SEO_TITLE_MAX),
  seo_keywords: text(SEO_KEYWORDS_MAX),
  seo_description: text(SEO_DESCRIPTION_MAX),
};

export const categoryInputSchema = z.object({
  ...categoryFields,
  sort: categoryFields.sort.default(0),
  parent_id: categoryFields.parent_id.default(null),
  enabled: categoryFields.enabled.default(true),
  model_id: categoryFields.model_id.default(1),
  seo_title: categoryFields.seo_title.default(""),
  seo_keywords: categoryFields.seo_keywords.default(""),
  seo_description: categoryFields.seo_description.default(""),
});
export type CategoryInput = z.output<typeof categoryInputSchema>;
/** An edit names only what changes (no defaults: a missing field stays as it is). */
export const categoryPatchSchema = z.object(categoryFields).partial();
export type CategoryPatchInput = z.output<typeof categoryPatchSchema>;

export const categoryRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  diyname: z.string(),
  sort: z.number(),
  count: z.number(),
  parent_id: z.number().nullable(),
  parent_name: z.string().nullable(),
  enabled: z.boolean(),
  model_id: z.number(),
  seo_title: z.string(),
  seo_keywords: z.string(),
  seo_description: z.string(),
  url: z.string(),
});
export type CategoryRow = z.infer<typeof categoryRowSchema>;
export const categoryTableSchema = adminTableAnswer(categoryRowSchema);
export const categoryIndexQuerySchema = adminTableQuerySchema;
export const categoryOptionSchema = z.object({ id: z.number(), name: z.string(), parent_id: z.number().nullable() });

const blockPosition = z.enum(BLOCK_POSITIONS.map((p) => p.value) as [string, ...string[]], { error: bt.positionBad });

const blockFields = {
  name: z.string({ error: bt.nameRequired }).trim().min(1, { error: bt.nameRequired }).max(BLOCK_NAME_MAX, { error: bt.nameTooLong }),
  position: blockPosition,
  status: z.boolean({ error: "启用状态无效" }),
  sort: sortField,
};
export const blockInputSchema = z.object({ ...blockFields, status: blockFields.status.default(true), sort: blockFields.sort.default(0) });
export type BlockInput = z.output<typeof blockInputSchema>;
export const blockPatchSchema = z.object(blockFields).partial();
export type BlockPatchInput = z.output<typeof blockPatchSchema>;

export const blockRowSchema = z.object({
  id: z.number(),
  name: z.string(),
  position: z.string(),
  position_text: z.string(),
  status: z.boolean(),
  status_text: z.string(),
  sort: z.number(),
  items: z.number(),
});
export type BlockRow = z.infer<typeof blockRowSchema>;
export const blockTableSchema = adminTableAnswer(blockRowSchema);

/** An uploaded image is ours (/uploads/blocks/…); older rows may point anywhere http(s) or on the site. */
const blockImage = z
  .string({ error: bt.imageRequired })
  .trim()
  .min(1, { error: bt.imageRequired })
  .max(BLOCK_URL_MAX, { error: bt.imageBad })
  .regex(BLOCK_URL_PATTERN, { error: bt.imageBad });

const blockItemFields = {
  name: z.string({ error: bt.itemNameRequired }).trim().min(1, { error: bt.itemNameRequired }).max(BLOCK_ITEM_NAME_MAX, { error: bt.itemNameTooLong }),
  url: z.string({ error: bt.itemUrlRequired }).trim().min(1, { error: bt.itemUrlRequired }).max(BLOCK_URL_MAX, { error: bt.itemUrlBad }).regex(BLOCK_URL_PATTERN, { error: bt.itemUrlBad }),
  image: blockImage,
  sort: sortField,
};
export const blockItemInputSchema = z.object({ ...blockItemFields, sort: blockItemFields.sort.default(0) });
export type BlockItemInput = z.output<typeof blockItemInputSchema>;
export const blockItemPatchSchema = z.object(blockItemFields).partial();
export type BlockItemPatchInput = z.output<typeof blockItemPatchSchema>;

export const blockItemRowSchema = z.object({
  id: z.number(),
  block_id: z.number(),
  name: z.string(),
  url: z.string(),
  image: z.string(),
  sort: z.number(),
});
export type BlockItemRow = z.infer<typeof blockItemRowSchema>;

export const siteSettingsSchema = z.object({
  title: z.string({ error: st.titleRequired }).trim().min(1, { error: st.titleRequired }).max(L.title, { error: st.titleTooLong }),
  keywords: z.string().trim().max(L.keywords, { error: st.keywordsTooLong }).default(""),
  description: z.string().trim().max(L.description, { error: st.descriptionTooLong }).default(""),
  footer: z.string().trim().max(L.footer, { error: st.footerTooLong }).default(""),
  partnerText: z.string().trim().max(L.partnerText, { error: st.partnerTooLong }).default(""),
});
export type SiteSettingsInput = z.output<typeof siteSettingsSchema>;
