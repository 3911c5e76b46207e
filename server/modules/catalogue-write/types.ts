import type { blockItems, blocks, categories, items, sourceSites } from "../../db/schema/index.js";

type Insert<T extends { $inferInsert: unknown }> = T["$inferInsert"];

/** Columns the write service computes itself (derive.ts); callers never set them. */
type ComputedItemColumn = "id" | "searchText" | "trackCount" | "createdAt" | "updatedAt";
/** Counters: a new item may start from counts its source had; later they only move by `addToItemCounts`. */
type CounterColumn = "viewCount" | "likeCount" | "favoriteCount" | "downloadCount" | "commentCount";

/** A new item: what its writer knows (collector, back office, seed). */
export type NewItem = Omit<Insert<typeof items>, ComputedItemColumn>;
export type ItemPatch = Partial<Omit<NewItem, CounterColumn>>;

/** Counter columns another module's rows are counted in (likes, favourites, …). */
export interface ItemCountDelta {
  likes?: number;
  favorites?: number;
  downloads?: number;
  comments?: number;
}

type Managed = "id" | "createdAt" | "updatedAt";
export type NewCategory = Omit<Insert<typeof categories>, Managed>;
export type CategoryPatch = Partial<NewCategory>;
export type NewBlock = Omit<Insert<typeof blocks>, Managed>;
export type BlockPatch = Partial<NewBlock>;
export type NewBlockItem = Omit<Insert<typeof blockItems>, Managed>;
export type BlockItemPatch = Partial<NewBlockItem>;
export type NewSourceSite = Omit<Insert<typeof sourceSites>, "createdAt" | "updatedAt">;
export type SourceSitePatch = Partial<Omit<NewSourceSite, "code">>;
