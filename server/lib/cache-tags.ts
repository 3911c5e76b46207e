import type { CatalogueEvent } from "../events/catalogue-events.js";
import type { EventBus } from "../events/bus.js";
import { CacheRegistry, type Tag, type TagPlan } from "./cache.js";

/**
 * The tags of kept values and which change event drops which (ADR 0054): the one place where
 * invalidation rules are written. A cached value carries the tags of what it was built from
 * (its cache's `tagsOf`, plus the tags of every cached value its load read: a page carries those
 * of the answers it was rendered from); an event drops exactly the values carrying its tags.
 *
 * A new event type gets its line in `planOf` (the compiler asks for it) and drops only what
 * carries its tags: nothing else is dropped "to be safe".
 */
export const tags = {
  /** Shows this item's data: title, cover, site, category, visibility. */
  item: (id: number): Tag => `item:${id}`,
  /** Shows this item's counters (likes, favourites, downloads, comments). */
  counts: (id: number): Tag => `counts:${id}`,
  /** Lists items of this category (or shows its name and address). */
  category: (id: number): Tag => `category:${id}`,
  /** A sitemap file's range of item ids (seo/service.ts SITEMAP_ITEMS_PER_FILE). */
  itemRange: (n: number): Tag => `item-range:${n}`,
  block: (id: number): Tag => `block:${id}`,
  source: (code: string): Tag => `source:${code}`,
  /** A site's own chart (`source_chart_entries`). */
  sourceChart: (code: string): Tag => `source-chart:${code}`,
  /** Lists items chosen across the catalogue (home, search, counts): any item write moves them. */
  items: "items" as Tag,
  /** Which item ids exist changed (created or deleted). */
  itemIds: "item-ids" as Tag,
  /** The enabled categories and their menu: navigation, every page's header. */
  nav: "nav" as Tag,
  /** Which blocks there are (the home page's sections). */
  blocks: "blocks" as Tag,
  /** Which sources there are and their switches (what lists and searches include). */
  sources: "sources" as Tag,
  /** Built from the play charts: refreshed in the background when they are rebuilt. */
  charts: "charts" as Tag,
  /** The site settings: titles, keywords, footer (every page's layout). */
  settings: "settings" as Tag,
} as const;

/** How many item ids one `itemRange` tag covers: a sitemap file holds whole ranges. */
export const ITEM_RANGE = 1_000;

const plan = (drop: Tag[], stale: Tag[] = []): TagPlan => ({ drop, stale });

/** What one change event drops (and marks stale) in every cache of the app. */
export function planOf(event: CatalogueEvent): TagPlan {
  switch (event.type) {
    case "items":
      return plan([
        ...event.ids.map(tags.item),
        ...event.categoryIds.map(tags.category),
        ...new Set(event.ids.map((id) => tags.itemRange(Math.floor(id / ITEM_RANGE)))),
        tags.items,
        ...(event.action === "updated" ? [] : [tags.itemIds]),
      ]);
    case "itemCounts":
      return plan(event.ids.map(tags.counts));
    case "categories":
      return plan([...event.ids.map(tags.category), tags.nav]);
    case "blocks":
      return plan([...event.ids.map(tags.block), tags.blocks]);
    case "sources":
      return plan([...event.codes.map(tags.source), tags.sources]);
    case "charts":
      return plan([], [tags.charts]);
    case "sourceCharts":
      return plan(event.codes.map(tags.sourceChart));
    case "settings":
      return plan([tags.settings]);
  }
}

/** Makes the registry drop by tags on every event of the bus (once per registry and bus). */
export function followEvents(caches: CacheRegistry, bus: EventBus): () => void {
  return caches.follow(bus, planOf);
}

/** A registry of its own that drops by the events of `bus` (scripts and tests; the app's is createServices'). */
export function registryFollowing(bus: EventBus, defaults?: ConstructorParameters<typeof CacheRegistry>[0]): CacheRegistry {
  const caches = new CacheRegistry(defaults);
  followEvents(caches, bus);
  return caches;
}
