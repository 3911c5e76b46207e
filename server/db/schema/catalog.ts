import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import type { DjListNode } from "@contracts/suite";
import { createdAt, idColumn, oneOf, tstz, updatedAt } from "./columns.js";

/** Where an item comes from: djuu, 172minx (shown as 172Mix), vvvdj, or `local` (our own). */
export const sourceSites = pgTable(
  "source_sites",
  {
    code: text("code").primaryKey(),
    name: text("name").notNull(),
    logo: text("logo"),
    homepage: text("homepage").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    sort: integer("sort").notNull().default(0),
    /** A generic source's adapter configuration (adapters/generic-config.ts); null for the built-in adapters. */
    adapterConfig: jsonb("adapter_config").$type<Record<string, unknown>>(),
    /** Minutes between scheduled collection jobs; 0 = collected only when an admin starts it. */
    collectIntervalMinutes: integer("collect_interval_minutes").notNull().default(0),
    /** One request and the search's wait for this source; null = the source's own default (3 s, or a generic config's `timeoutMs`). */
    timeoutMs: integer("timeout_ms"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("source_sites_timeout_ms_check", sql`${t.timeoutMs} between 500 and 30000`)],
);

/** Menu categories; `diyname` is the URL slug of /sort/{diyname}; model_id 2 lists in "latest" style. */
export const categories = pgTable(
  "categories",
  {
    id: idColumn(),
    name: text("name").notNull(),
    diyname: text("diyname").notNull(),
    parentId: integer("parent_id").references((): AnyPgColumn => categories.id, { onDelete: "set null" }),
    modelId: smallint("model_id").notNull().default(1),
    icon: text("icon"),
    sort: integer("sort").notNull().default(0),
    enabled: boolean("enabled").notNull().default(true),
    seoTitle: text("seo_title").notNull().default(""),
    seoKeywords: text("seo_keywords").notNull().default(""),
    seoDescription: text("seo_description").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("categories_diyname_uq").on(t.diyname),
    index("categories_parent_idx").on(t.parentId, t.sort),
    check("categories_sort_check", sql`${t.sort} >= 0`),
  ],
);

/** One node of a suite's `djlist` file tree (shape shared with the web: contracts/suite.ts). */
export type { DjListNode };

export const ITEM_KINDS = ["mix", "single"] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
export const PLAY_TYPES = ["mp3", "mp4"] as const;
export type PlayType = (typeof PLAY_TYPES)[number];
export const ITEM_STATUSES = ["normal", "hidden"] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/**
 * The playable catalogue: mixes (套曲/串烧) and singles (单曲) in one table, told apart by `kind`,
 * so search, charts, favourites and downloads have a single foreign key target.
 */
export const items = pgTable(
  "items",
  {
    id: idColumn(),
    kind: text("kind", { enum: ITEM_KINDS }).notNull(),
    title: text("title").notNull(),
    artist: text("artist").notNull().default("未知歌手"),
    cover: text("cover"),
    /** The spec's `palyurl`: what the player loads (may be resolved at play time for external items). */
    playUrl: text("play_url").notNull(),
    playtype: text("playtype", { enum: PLAY_TYPES }).notNull().default("mp3"),
    durationSec: integer("duration_sec"),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    bpm: smallint("bpm"),
    djlist: jsonb("djlist").$type<DjListNode[]>(),
    /** Number of leaves in `djlist` (the real "audio files" count), kept so lists need not parse the tree. */
    trackCount: integer("track_count").notNull().default(0),
    sourceSite: text("source_site")
      .notNull()
      .references(() => sourceSites.code),
    sourceUrl: text("source_url"),
    sourceId: text("source_id"),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    /** '1' = VIP download, '0' = paid with `price` coins (0 = free). Text because the spec's API says so. */
    vipdown: text("vipdown", { enum: ["0", "1"] }).notNull().default("0"),
    price: integer("price").notNull().default(0),
    weburl: text("weburl"),
    webPassword: text("web_password"),
    status: text("status", { enum: ITEM_STATUSES }).notNull().default("normal"),
    recommended: boolean("recommended").notNull().default(false),
    publishedAt: tstz("published_at").notNull().defaultNow(),
    viewCount: integer("view_count").notNull().default(0),
    likeCount: integer("like_count").notNull().default(0),
    favoriteCount: integer("favorite_count").notNull().default(0),
    downloadCount: integer("download_count").notNull().default(0),
    commentCount: integer("comment_count").notNull().default(0),
    /** Lower-cased title + artist + CJK unigrams/bigrams + pinyin + initials; see modules/search/search-text.ts. */
    searchText: text("search_text").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * In the recycle bin since (ADR 0065); null = not deleted. A deleted item is `hidden` (so every
     * public list, search, chart, page and sitemap leaves it out, as a hidden one) and purged after 30 days.
     */
    deletedAt: tstz("deleted_at"),
    /** The status a restore gives back (the one it had when deleted). */
    deletedStatus: text("deleted_status", { enum: ITEM_STATUSES }),
  },
  (t) => [
    oneOf("items_kind_check", t.kind, ITEM_KINDS),
    oneOf("items_playtype_check", t.playtype, PLAY_TYPES),
    oneOf("items_status_check", t.status, ITEM_STATUSES),
    oneOf("items_vipdown_check", t.vipdown, ["0", "1"]),
    check("items_price_check", sql`${t.price} >= 0`),
    index("items_search_trgm_idx").using("gin", t.searchText.op("gin_trgm_ops")),
    // The same over every SEARCH_SAMPLE_MODULUS-th item: a keyword with many hits (周杰伦: 40,000
    // at 1,500,000 items) finds its capped hits there instead of bitmapping and sorting them all
    // (server/modules/search/repo.ts). The modulus is written out: a partial index is only used
    // when the query repeats its predicate literally.
    index("items_search_sample_trgm_idx")
      .using("gin", t.searchText.op("gin_trgm_ops"))
      .where(sql`${t.id} % 8 = 0`),
    // Latest per category: newest first with id as tie-break. Indexes are ascending on purpose:
    // a backward scan serves `ORDER BY ... DESC` (NULLS FIRST), which drizzle-kit's
    // `.desc()` (emitted as DESC NULLS LAST) would not.
    // Visible items only (every list asks for status = 'normal'): answered by index-only scans.
    index("items_category_latest_idx").on(t.categoryId, t.publishedAt, t.id).where(sql`${t.status} = 'normal'`),
    // Most viewed per category (getsort filter=hot), visible items only.
    index("items_category_hot_idx").on(t.categoryId, t.viewCount, t.id).where(sql`${t.status} = 'normal'`),
    index("items_kind_latest_idx").on(t.kind, t.publishedAt, t.id),
    // The back office's suite table (ADR 0028): a kind newest-added first, and by category.
    index("items_kind_id_idx").on(t.kind, t.id),
    index("items_kind_category_id_idx").on(t.kind, t.categoryId, t.id),
    index("items_site_kind_idx").on(t.sourceSite, t.kind),
    // The sitemaps: visible ids with their lastmod, a range of 50,000 read from the index alone
    // (the heap pages of 50,000 items are ~60 MB: 0.3 s a sitemap at 1,500,000 items).
    index("items_sitemap_idx").on(t.id, t.updatedAt).where(sql`${t.status} = 'normal'`),
    index("items_recommended_idx").on(t.publishedAt).where(sql`${t.recommended}`),
    // The recycle bin's purge: the few deleted items, oldest first.
    index("items_deleted_idx").on(t.deletedAt).where(sql`${t.deletedAt} is not null`),
    // Collected items map back to their origin exactly once.
    uniqueIndex("items_source_uq").on(t.sourceSite, t.sourceId).where(sql`${t.sourceId} is not null`),
  ],
);

/** Content blocks by position: `indexfocus` (home carousel), `indexweb` (partner logos). */
export const blocks = pgTable(
  "blocks",
  {
    id: idColumn(),
    name: text("name").notNull(),
    position: text("position").notNull(),
    status: boolean("status").notNull().default(true),
    sort: integer("sort").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("blocks_position_idx").on(t.position, t.sort)],
);

export const blockItems = pgTable(
  "block_items",
  {
    id: idColumn(),
    blockId: integer("block_id")
      .notNull()
      .references(() => blocks.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    image: text("image").notNull(),
    sort: integer("sort").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("block_items_block_idx").on(t.blockId, t.sort)],
);

/** Raw finds of the collectors, waiting to be processed (status 0) into items (status 1). */
export const collectedItems = pgTable(
  "collected_items",
  {
    id: idColumn(),
    title: text("title").notNull(),
    /** Source site code; not a foreign key because generic adapters may collect from unlisted sites. */
    source: text("source").notNull(),
    sourceUrl: text("source_url").notNull(),
    /** The item's id on its site (play-time resolution and processing need it). */
    sourceId: text("source_id"),
    artist: text("artist"),
    cover: text("cover"),
    kind: text("kind", { enum: ITEM_KINDS }),
    playtype: text("playtype", { enum: PLAY_TYPES }).notNull().default("mp3"),
    /** The site's category key and name where the item was found (processing maps it to ours). */
    sourceCategory: text("source_category"),
    sourceCategoryName: text("source_category_name"),
    /** The source's chart positions as last collected, e.g. {"week:mix": 3}. */
    chartPositions: jsonb("chart_positions").$type<Record<string, number>>().notNull().default({}),
    filename: text("filename"),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    durationSec: integer("duration_sec"),
    status: smallint("status").notNull().default(0),
    raw: jsonb("raw").$type<Record<string, unknown>>(),
    itemId: integer("item_id").references(() => items.id, { onDelete: "set null" }),
    processedAt: tstz("processed_at"),
    /** Last time a collection job saw it listed. */
    lastSeenAt: tstz("last_seen_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    oneOf("collected_items_status_check", t.status, ["0", "1"]),
    oneOf("collected_items_kind_check", t.kind, ITEM_KINDS),
    oneOf("collected_items_playtype_check", t.playtype, PLAY_TYPES),
    uniqueIndex("collected_items_source_url_uq").on(t.source, t.sourceUrl),
    index("collected_items_status_idx").on(t.status, t.createdAt),
    index("collected_items_title_trgm_idx").using("gin", sql`lower(${t.title}) gin_trgm_ops`),
  ],
);
