import { z } from "zod";
import { catalogueItemSchema } from "./catalogue-item";

/** How many lines each of a suite page's two lists shows. */
export const RELATED_LINES = 8;

/**
 * `GET /api/forntend/related?id=N` (ADR 0062; the spec names no such call, the name follows its
 * `/api/forntend/*` family): a suite page's 该DJ的更多作品 (same artist) and 相关推荐 (same
 * category, most alike in title), read after hydration so the kept page stays the same bytes.
 */
export const relatedSchema = z.object({
  artist: z.string(),
  byArtist: z.array(catalogueItemSchema),
  related: z.array(catalogueItemSchema),
});
export type Related = z.infer<typeof relatedSchema>;
