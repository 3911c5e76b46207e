import { z } from "zod";
import { catalogueItemSchema } from "./catalogue-item";
import { chartSideSchema } from "./charts";

/** How many items each home list shows. */
export const HOME_LIMITS = {
  /** 'recommend' and 'favourites' tabs. */
  tab: 12,
  /** Latest per menu group (suitelist). */
  group: 10,
  /** Latest per category (suitelistx). */
  category: 6,
} as const;

/** A carousel slide or partner logo: a block item of position indexfocus / indexweb. */
export const blockItemSchema = z.object({
  name: z.string(),
  url: z.string(),
  image: z.string(),
});
export type BlockItem = z.infer<typeof blockItemSchema>;

/** A source site as the search box's selector offers it (code "" = every site). */
export const searchChannelSchema = z.object({ code: z.string(), name: z.string() });
export type SearchChannel = z.infer<typeof searchChannelSchema>;

export const sourceSiteSchema = searchChannelSchema.extend({ logo: z.string(), homepage: z.string() });

/** A category with its newest items and the address of its page ('more'). */
export const categoryLatestSchema = z.object({
  name: z.string(),
  diyname: z.string(),
  cidurl: z.string(),
  list: z.array(catalogueItemSchema),
});
export type CategoryLatest = z.infer<typeof categoryLatestSchema>;

export const homeDataSchema = z.object({
  /** Partner logos. */
  indexweb: z.array(blockItemSchema),
  /** Carousel slides. */
  indexfocus: z.array(blockItemSchema),
  /** Source sites with logo and home page. */
  siteweblist: z.array(sourceSiteSchema),
  /** The search box's source-site options, "全部" first. */
  channel: z.array(searchChannelSchema),
  /** Recommendations ('recommend' tab). */
  data: z.array(catalogueItemSchema),
  /** Most favourited items ('favourites' tab). */
  favorites: z.array(catalogueItemSchema),
  /** Charts, keyed as in getsort. */
  side: chartSideSchema,
  /** The scrollable category selector: every enabled category that lists items. */
  categories: z.array(z.object({ name: z.string(), diyname: z.string(), cidurl: z.string() })),
  /** Latest per menu group (DJ串烧, DJ单曲, …), its children's items included. */
  suitelist: z.array(categoryLatestSchema),
  /** Latest per category. */
  suitelistx: z.array(categoryLatestSchema),
  /** Visible items in the catalogue. */
  total: z.number().int(),
});
export type HomeData = z.infer<typeof homeDataSchema>;

/** GET /api/forntend/index: the envelope plus the page's SEO texts at the top level (spec section 7). */
export const homeResponseSchema = z.object({
  code: z.literal([0, 1]),
  msg: z.string(),
  time: z.number(),
  title: z.string(),
  keywords: z.string(),
  description: z.string(),
  data: homeDataSchema,
});
export type HomeResponse = z.infer<typeof homeResponseSchema>;
