import { countAudioFiles, type DjListNode } from "@contracts/suite";
import { buildSearchText } from "../search/search-text.js";

/** The fields an item's computed columns are made from. */
export interface ItemSource {
  title: string;
  artist?: string | null;
  djlist?: DjListNode[] | null;
}

export interface DerivedItemColumns {
  /** What search matches: see modules/search/search-text.ts. */
  searchText: string;
  /** Audio files in the item: djlist leaves; an item without a tree is itself one file. */
  trackCount: number;
}

/**
 * Every computed column of an item, from one place: the write service calls it on every insert
 * and on every update that touches a source field, and so does bulk seeding (through the write
 * service), so an item written any way can be found by search.
 */
export function deriveItemColumns(item: ItemSource): DerivedItemColumns {
  return {
    searchText: buildSearchText(item.title, item.artist),
    trackCount: item.djlist?.length ? countAudioFiles(item.djlist) : 1,
  };
}

/** Fields whose change means the derived columns must be made again. */
export const DERIVATION_SOURCES = ["title", "artist", "djlist"] as const;
