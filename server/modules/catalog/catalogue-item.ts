import type { CatalogueItem } from "@contracts/catalogue-item";
import { DEFAULT_ARTIST, DEFAULT_COVER } from "@contracts/player-texts";
import { hasHlsHint, HLS_MIME_TYPE } from "@contracts/play-format";
import { categoryPath, suitePath } from "@contracts/paths";
import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { categories, items, sourceSites } from "../../db/schema/index.js";
import type { LeftJoined, RawFields, RowOf } from "../../db/sql.js";

/** `items` as every list query reads it (`items i`), with its site (`s`) and category (`c`). */
export const ci = alias(items, "i");
const cs = alias(sourceSites, "s");
const cc = alias(categories, "c");

/** The fields of a `CatalogueItemRow` over `items i` joined by `catalogueItemJoins`. */
export const catalogueItemFields = {
  id: ci.id,
  title: ci.title,
  artist: ci.artist,
  cover: ci.cover,
  play_url: ci.playUrl,
  playtype: ci.playtype,
  kind: ci.kind,
  source_site: ci.sourceSite,
  site_name: cs.name,
  site_logo: cs.logo,
  category_name: cc.name,
  category_diyname: cc.diyname,
  published: sql<number>`extract(epoch from ${ci.publishedAt})::int`,
  vipdown: ci.vipdown,
  price: ci.price,
  view_count: ci.viewCount,
};

/** The row of `fields` (catalogueItemFields and more): the site's and category's columns are left-joined. */
export type CatalogueRowOf<F extends RawFields> = LeftJoined<RowOf<F>, "site_name" | "category_name" | "category_diyname">;
/** An item row with its source site and category, as every list query selects it. */
export type CatalogueItemRow = CatalogueRowOf<typeof catalogueItemFields>;

export const catalogueItemJoins = sql`left join ${sourceSites} ${cs} on ${cs.code} = ${ci.sourceSite}
  left join ${categories} ${cc} on ${cc.id} = ${ci.categoryId}`;

/** Only visible items are listed; the literal matches the partial indexes' predicate. */
export const visibleItem = sql`${ci.status} = 'normal'`;

export function toCatalogueItem(row: CatalogueItemRow): CatalogueItem {
  return {
    id: row.id,
    name: row.title,
    artist: row.artist || DEFAULT_ARTIST,
    cover: row.cover || DEFAULT_COVER,
    palyurl: row.play_url,
    // A collected item of an HLS-only site plays through our route: its stored hint says HLS (ADR 0024).
    ...(hasHlsHint(row.play_url) ? { mimeType: HLS_MIME_TYPE } : {}),
    playtype: row.playtype,
    kind: row.kind,
    channel: row.source_site,
    website: row.site_name ?? row.source_site,
    websitelogo: row.site_logo ?? "",
    category: row.category_name ?? "",
    cidurl: row.category_diyname ? categoryPath(row.category_diyname) : "",
    time: row.published,
    // Never the link itself in a public answer: members get it from the download call (ADR 0019).
    weburl: "",
    url: suitePath(row.id),
    vipdown: row.vipdown,
    price: row.price,
    view_count: row.view_count,
    source: "local",
  };
}
