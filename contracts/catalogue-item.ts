import { z } from "zod";

/**
 * One place a hit can be played from (ADR 0052): the same work found by several sources is one
 * hit with a place per source, the fastest to start playing first.
 */
export const hitPlaceSchema = z.object({
  /** The provider that found it: "local" or an external site code. */
  source: z.string(),
  /** That provider's id of the hit (as the item's `id`). */
  id: z.union([z.number().int(), z.string()]),
  website: z.string(),
  websitelogo: z.string(),
  /** Spelled so by the spec. */
  palyurl: z.string(),
  mimeType: z.string().optional(),
  /** Our detail page or the source page. */
  url: z.string(),
});
export type HitPlace = z.infer<typeof hitPlaceSchema>;

/**
 * One playable item as every list shows it (search hits, category pages, the home page's lists):
 * the spec's Song fields (section 3) plus where it came from.
 */
export const catalogueItemSchema = z.object({
  /** Our item id for the local catalogue; an external provider may answer its own id. */
  id: z.union([z.number().int(), z.string()]),
  name: z.string(),
  artist: z.string(),
  cover: z.string(),
  /** Spelled so by the spec. */
  palyurl: z.string(),
  /**
   * How the player should treat `palyurl` when its address cannot say: an external hit's
   * resolve route that redirects to an HLS playlist answers "application/vnd.apple.mpegurl".
   * Absent for the catalogue (the address's extension says).
   */
  mimeType: z.string().optional(),
  playtype: z.enum(["mp3", "mp4"]),
  kind: z.enum(["mix", "single"]),
  /** Source site code (djuu, 172minx, vvvdj, local) and its display name and logo. */
  channel: z.string(),
  website: z.string(),
  websitelogo: z.string(),
  category: z.string(),
  cidurl: z.string(),
  /** Unix seconds of publication. */
  time: z.number().int(),
  /**
   * Empty for our catalogue: the network-drive link is handed to members by
   * `POST /api/user/download` only (it charges coins or needs VIP).
   */
  weburl: z.string(),
  /** Our detail page (/sutie/{id}.html) or the source page for external hits. */
  url: z.string(),
  vipdown: z.enum(["0", "1"]),
  price: z.number().int(),
  view_count: z.number().int(),
  /** The provider that found it: "local" or an external site code. */
  source: z.string(),
  /**
   * Search hits only, and only when the hit was found in more than one place (ADR 0052): every
   * place, the fastest to start first. In the merged answer the item's own fields are those of
   * `places[0]`; in a stream they are those of the place shown first.
   */
  places: z.array(hitPlaceSchema).optional(),
});
export type CatalogueItem = z.infer<typeof catalogueItemSchema>;
