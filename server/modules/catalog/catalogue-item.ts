import type { CatalogueItem } from "@contracts/catalogue-item";
import { DEFAULT_ARTIST, DEFAULT_COVER } from "@contracts/player-texts";
import { hasHlsHint, HLS_MIME_TYPE } from "@contracts/play-format";
import { categoryPath, suitePath } from "@contracts/paths";
import { sql } from "drizzle-orm";

/** An item row with its source site and category, as every list query selects it. */
export interface CatalogueItemRow {
  id: number;
  title: string;
  artist: string;
  cover: string | null;
  play_url: string;
  playtype: "mp3" | "mp4";
  kind: "mix" | "single";
  source_site: string;
  site_name: string | null;
  site_logo: string | null;
  category_name: string | null;
  category_diyname: string | null;
  published: number;
  vipdown: "0" | "1";
  price: number;
  view_count: number;
}

/** The select list of a `CatalogueItemRow` over `items i` joined by `catalogueItemJoins`. */
export const catalogueItemColumns = sql`i.id, i.title, i.artist, i.cover, i.play_url, i.playtype, i.kind, i.source_site,
  s.name as site_name, s.logo as site_logo, c.name as category_name, c.diyname as category_diyname,
  extract(epoch from i.published_at)::int as published, i.vipdown, i.price, i.view_count`;

export const catalogueItemJoins = sql`left join source_sites s on s.code = i.source_site
  left join categories c on c.id = i.category_id`;

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
