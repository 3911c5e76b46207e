import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";
import { users } from "./accounts.js";
import { createdAt, idColumn, oneOf, tstz, updatedAt } from "./columns.js";
import { itemRef, userRef } from "./refs.js";

/** user x item relations share one shape; one row per pair, newest first per user. */
function userItemTable(name: "favorites" | "likes") {
  return pgTable(
    name,
    {
      id: idColumn(),
      userId: userRef(),
      itemId: itemRef(),
      createdAt: createdAt(),
    },
    (t) => [
      uniqueIndex(`${name}_user_item_uq`).on(t.userId, t.itemId),
      index(`${name}_user_created_idx`).on(t.userId, t.createdAt),
      index(`${name}_item_idx`).on(t.itemId),
    ],
  );
}

export const favorites = userItemTable("favorites");
export const likes = userItemTable("likes");

/** Download history; a re-download is a new row, whether it costs coins again is a service rule. */
export const downloads = pgTable(
  "downloads",
  {
    id: idColumn(),
    userId: userRef(),
    itemId: itemRef(),
    coinsSpent: integer("coins_spent").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("downloads_user_created_idx").on(t.userId, t.createdAt),
    index("downloads_item_idx").on(t.itemId),
    // The dashboard's downloads today / yesterday: a range on created_at.
    index("downloads_created_idx").on(t.createdAt),
    check("downloads_coins_check", sql`${t.coinsSpent} >= 0`),
  ],
);

/**
 * What a member paid for a priced item's download: one row per (user, item). The row and the
 * coin deduction commit together, and the primary key makes simultaneous clicks charge once
 * (the second insert waits for the first and then finds it); later downloads are free.
 */
export const downloadPurchases = pgTable(
  "download_purchases",
  {
    userId: userRef(),
    itemId: itemRef(),
    coins: integer("coins").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "download_purchases_pk", columns: [t.userId, t.itemId] }),
    index("download_purchases_item_idx").on(t.itemId),
    check("download_purchases_coins_check", sql`${t.coins} > 0`),
  ],
);

export const comments = pgTable(
  "comments",
  {
    id: idColumn(),
    itemId: itemRef(),
    userId: userRef(),
    parentId: integer("parent_id").references((): AnyPgColumn => comments.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    status: text("status", { enum: ["normal", "hidden"] }).notNull().default("normal"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    oneOf("comments_status_check", t.status, ["normal", "hidden"]),
    index("comments_item_created_idx").on(t.itemId, t.createdAt),
    index("comments_user_idx").on(t.userId),
    index("comments_parent_idx").on(t.parentId),
  ],
);

/** Server-side resume positions for logged-in users (guests keep theirs in the browser). */
export const playbackPositions = pgTable(
  "playback_positions",
  {
    userId: userRef(),
    itemId: itemRef(),
    positionSec: integer("position_sec").notNull(),
    durationSec: integer("duration_sec"),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "playback_positions_pk", columns: [t.userId, t.itemId] }),
    index("playback_positions_user_updated_idx").on(t.userId, t.updatedAt),
    index("playback_positions_item_idx").on(t.itemId),
    check("playback_positions_position_check", sql`${t.positionSec} >= 0`),
  ],
);

/**
 * A member's player queue (the playlist) as catalogue item ids in play order, and the current
 * entry (-1: none). Ids of items deleted since are skipped when read.
 */
export const playerQueues = pgTable(
  "player_queues",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    itemIds: integer("item_ids").array().notNull(),
    currentIndex: integer("current_index").notNull().default(-1),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [check("player_queues_index_check", sql`${t.currentIndex} >= -1`)],
);
