import { DEFAULT_ARTIST } from "@contracts/player-texts";
import { withHlsHint } from "@contracts/play-format";
import type { collectedItems, ItemKind } from "../../db/schema/index.js";
import type { ItemPatch, NewItem } from "../catalogue-write/types.js";
import { classifyKind } from "../sources/normalise.js";
import { sourcePlayUrl } from "../sources/source-provider.js";

/**
 * How a collected row becomes a catalogue item (ADR 0024): pure rules, no database.
 */

export type CollectedRow = typeof collectedItems.$inferSelect;

/** One of our categories as the mapping sees it. */
export interface CategoryRef {
  id: number;
  name: string;
  diyname: string;
  /** The parent's diyname (chuanshao, danqu, mange), null for a top-level category. */
  parent: string | null;
}

/** Where an item of each kind goes when the site's category names none of ours. */
export const KIND_PARENT: Record<ItemKind, string> = { mix: "chuanshao", single: "danqu" };
/** A category under these parents says the kind (the site's own category first: SOURCES.md). */
const PARENT_KIND: Record<string, ItemKind> = { chuanshao: "mix", danqu: "single" };

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Our category whose name is the site's category name (case and spaces aside). */
export function categoryByName(name: string | null, categories: readonly CategoryRef[]): CategoryRef | undefined {
  if (!name?.trim()) return undefined;
  return categories.find((c) => sameName(c.name, name));
}

/**
 * Mix or single: the collector's reading first; else the kind our same-named category holds;
 * else SOURCES.md's rule (a name keyword, 100 MiB, 30 minutes) in `classifyKind`.
 */
export function kindOf(row: Pick<CollectedRow, "kind" | "title" | "sizeBytes" | "durationSec">, named: CategoryRef | undefined): ItemKind {
  const categoryKind = named ? (PARENT_KIND[named.diyname] ?? (named.parent ? PARENT_KIND[named.parent] : undefined)) : undefined;
  return classifyKind({ siteKind: row.kind ?? categoryKind ?? null, title: row.title, sizeBytes: row.sizeBytes, duration: row.durationSec });
}

/** The site's category by name, else the kind's parent (DJ串烧 / DJ单曲), else none. */
export function categoryFor(named: CategoryRef | undefined, kind: ItemKind, categories: readonly CategoryRef[]): number | null {
  if (named) return named.id;
  return categories.find((c) => c.diyname === KIND_PARENT[kind])?.id ?? null;
}

/** The item's id on its site: the collector's, else read from a `/play/{id}` address. */
export function sourceIdOf(row: Pick<CollectedRow, "sourceId" | "sourceUrl">): string | null {
  if (row.sourceId?.trim()) return row.sourceId.trim();
  const match = /\/play\/([A-Za-z0-9_-]+)(?:\.html?)?(?:[?#]|$)/u.exec(row.sourceUrl);
  return match?.[1] ?? null;
}

/** Our play route for the item, resolved at play time; hinted when the source streams HLS. */
export function playUrlFor(source: string, sourceId: string, playFormat: "hls" | undefined): string {
  const url = sourcePlayUrl(source, sourceId);
  return playFormat === "hls" ? withHlsHint(url) : url;
}

export interface MappedItem {
  /** A new item's row. */
  create: NewItem;
  /** What an update changes: the source's fields; status, counters and price stay. */
  update: ItemPatch;
}

/**
 * The item's fields from a collected row. An update keeps what the row does not know (cover,
 * duration, size, artist left empty by the site) and an existing category (an admin's choice).
 */
export function mapCollected(
  row: CollectedRow,
  context: { sourceId: string; categories: readonly CategoryRef[]; playFormat: "hls" | undefined; existingCategoryId?: number | null },
): MappedItem {
  const named = categoryByName(row.sourceCategoryName, context.categories);
  const kind = kindOf(row, named);
  const categoryId = categoryFor(named, kind, context.categories);
  const source = {
    title: row.title,
    kind,
    sourceSite: row.source,
    sourceId: context.sourceId,
    sourceUrl: row.sourceUrl,
    // Downloads happen at the source: its page is the item's link.
    weburl: row.sourceUrl,
    playUrl: playUrlFor(row.source, context.sourceId, context.playFormat),
    playtype: row.playtype,
  } satisfies ItemPatch;
  const known = <K extends string, V>(key: K, value: V | null | undefined) => (value === null || value === undefined ? {} : ({ [key]: value } as Record<K, V>));
  const artist = row.artist?.trim() || null;
  return {
    create: {
      ...source,
      artist: artist ?? DEFAULT_ARTIST,
      cover: row.cover,
      durationSec: row.durationSec,
      sizeBytes: row.sizeBytes,
      categoryId,
    },
    update: {
      ...source,
      ...known("artist", artist),
      ...known("cover", row.cover),
      ...known("durationSec", row.durationSec),
      ...known("sizeBytes", row.sizeBytes),
      ...(context.existingCategoryId == null ? { categoryId } : {}),
    },
  };
}
