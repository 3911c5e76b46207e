/**
 * What the catalogue write service says after each committed write (ADR 0016). Plain JSON,
 * so the bus carries it between instances (Redis pub/sub, `redis-bus.ts`, when REDIS_URL is set).
 *
 * - `items`: items were created, updated, hidden/shown or deleted. `categoryIds` holds every
 *   category an item was in before or after the write, `siteCodes` every source site, so a
 *   cache can drop exactly the category pages and sites concerned.
 * - `itemCounts`: only the counters of these items changed (likes, favourites, downloads,
 *   comments): their pages change, no list does.
 * - `categories`, `blocks`, `sources`: rows of those tables changed (names, order, switches).
 * - `charts`: the charts were rebuilt from plays (not a catalogue write; answers that show
 *   charts refresh in the background rather than drop).
 * - `sourceCharts`: a collection stored the named sites' own charts (`source_chart_entries`);
 *   the charts panel's site board drops them (charts service `sourceChartsChanged`).
 * - `settings`: the back office saved the site settings (title, keywords, description, footer,
 *   partner text; ADR 0030): answers that carry them (home, the public layout) drop them.
 */
export type ChangeAction = "created" | "updated" | "deleted";

export type CatalogueEvent =
  | { type: "items"; action: ChangeAction; ids: number[]; categoryIds: number[]; siteCodes: string[] }
  | { type: "itemCounts"; ids: number[] }
  | { type: "categories"; action: ChangeAction; ids: number[] }
  | { type: "blocks"; action: ChangeAction; ids: number[] }
  | { type: "sources"; action: ChangeAction; codes: string[] }
  | { type: "charts" }
  | { type: "sourceCharts"; codes: string[] }
  | { type: "settings"; keys: string[] };

export type CatalogueEventType = CatalogueEvent["type"];
