import type { AppDatabase } from "../../db/types.js";
import type { EventBus } from "../../events/bus.js";
import type { CatalogueEvent, ChangeAction } from "../../events/catalogue-events.js";
import { DERIVATION_SOURCES, deriveItemColumns } from "./derive.js";
import { catalogueWriteRepo, type Executor, type ItemPlace } from "./repo.js";
import type {
  BlockItemPatch,
  BlockPatch,
  CategoryPatch,
  ItemCountDelta,
  ItemPatch,
  NewBlock,
  NewBlockItem,
  NewCategory,
  NewItem,
  NewSourceSite,
  SourceSitePatch,
} from "./types.js";

type Tx = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

function itemsEvent(action: ChangeAction, places: readonly ItemPlace[], after: readonly Partial<ItemPlace>[] = []): CatalogueEvent {
  const all = [...places, ...after];
  return {
    type: "items",
    action,
    ids: unique(places.map((p) => p.id)),
    categoryIds: unique(all.map((p) => p.categoryId).filter((id): id is number => typeof id === "number")),
    siteCodes: unique(all.map((p) => p.sourceSite).filter((code): code is string => typeof code === "string")),
  };
}

/**
 * The writes of one transaction. Each records the change event it causes; the service
 * publishes them once the transaction has committed (never for a rolled-back one).
 */
function writer(db: Executor, events: CatalogueEvent[]) {
  const repo = catalogueWriteRepo(db);
  return {
    /** New items with their computed columns; returns their ids (skipped duplicates have none). */
    async createItems(rows: readonly NewItem[], options: { onConflictDoNothing?: boolean } = {}): Promise<number[]> {
      if (rows.length === 0) return [];
      const places = await repo.insertItems(
        rows.map((row) => ({ ...row, ...deriveItemColumns(row) })),
        options.onConflictDoNothing,
      );
      if (places.length) events.push(itemsEvent("created", places));
      return places.map((p) => p.id);
    },

    /** Changes an item; its computed columns follow. False when there is no such item. */
    async updateItem(id: number, patch: ItemPatch): Promise<boolean> {
      const [before] = await repo.lockItems([id]);
      if (!before) return false;
      const derived = DERIVATION_SOURCES.some((k) => k in patch)
        ? deriveItemColumns({
            title: patch.title ?? before.title,
            artist: patch.artist === undefined ? before.artist : patch.artist,
            djlist: patch.djlist === undefined ? before.djlist : patch.djlist,
          })
        : {};
      await repo.updateItem(id, { ...patch, ...derived });
      events.push(itemsEvent("updated", [before], [patch as Partial<ItemPlace>]));
      return true;
    },

    /** Shows or hides items (a hidden item leaves every list, chart, search and the sitemap). */
    async setItemsStatus(ids: readonly number[], status: "normal" | "hidden"): Promise<number[]> {
      const places = await repo.lockItems(ids);
      if (places.length === 0) return [];
      await repo.updateItems(places.map((p) => p.id), { status });
      events.push(itemsEvent("updated", places));
      return places.map((p) => p.id);
    },

    /**
     * Into the recycle bin (ADR 0065): hidden like a hidden item (every public answer leaves it
     * out; kept answers showing it drop), restorable. Answers the ids moved (not those already there).
     */
    async trashItems(ids: readonly number[]): Promise<number[]> {
      const places = await repo.lockItems(ids);
      if (places.length === 0) return [];
      const moved = await repo.trashItems(places.map((p) => p.id));
      if (moved.length) events.push(itemsEvent("updated", places.filter((p) => moved.includes(p.id))));
      return moved;
    },

    /** Out of the recycle bin with the status each had; answers the ids restored. */
    async restoreItems(ids: readonly number[]): Promise<number[]> {
      const places = await repo.lockItems(ids);
      if (places.length === 0) return [];
      const restored = await repo.restoreItems(places.map((p) => p.id));
      if (restored.length) events.push(itemsEvent("updated", places.filter((p) => restored.includes(p.id))));
      return restored;
    },

    async deleteItems(ids: readonly number[]): Promise<number[]> {
      const places = await repo.lockItems(ids);
      if (places.length === 0) return [];
      await repo.deleteItems(places.map((p) => p.id));
      events.push(itemsEvent("deleted", places));
      return places.map((p) => p.id);
    },

    /**
     * Adds to an item's counters, in the caller's transaction (e.g. with the `likes` row that
     * the count counts). False when the item does not exist.
     */
    async addToItemCounts(id: number, delta: ItemCountDelta): Promise<boolean> {
      const found = await repo.addToCounts(id, delta);
      if (found) events.push({ type: "itemCounts", ids: [id] });
      return found;
    },

    async createCategories(rows: readonly NewCategory[], options: { onConflictDoNothing?: boolean } = {}) {
      const created = await repo.insertCategories([...rows], options.onConflictDoNothing);
      if (created.length) events.push({ type: "categories", action: "created", ids: created.map((c) => c.id) });
      return created;
    },
    async updateCategory(id: number, patch: CategoryPatch): Promise<boolean> {
      const found = await repo.updateCategory(id, patch);
      if (found) events.push({ type: "categories", action: "updated", ids: [id] });
      return found;
    },
    /** Its items stay, without a category (they leave its lists). */
    async deleteCategory(id: number): Promise<boolean> {
      const itemIds = await repo.itemIdsInCategory(id);
      const places = await repo.lockItems(itemIds);
      const found = await repo.deleteCategory(id);
      if (!found) return false;
      events.push({ type: "categories", action: "deleted", ids: [id] });
      if (places.length) events.push(itemsEvent("updated", places));
      return true;
    },

    async createBlock(row: NewBlock): Promise<number> {
      const id = await repo.insertBlock(row);
      events.push({ type: "blocks", action: "created", ids: [id] });
      return id;
    },
    async updateBlock(id: number, patch: BlockPatch): Promise<boolean> {
      const found = await repo.updateBlock(id, patch);
      if (found) events.push({ type: "blocks", action: "updated", ids: [id] });
      return found;
    },
    async deleteBlock(id: number): Promise<boolean> {
      const found = await repo.deleteBlock(id);
      if (found) events.push({ type: "blocks", action: "deleted", ids: [id] });
      return found;
    },
    async createBlockItems(rows: readonly NewBlockItem[]): Promise<number[]> {
      const created = await repo.insertBlockItems([...rows]);
      if (created.length) events.push({ type: "blocks", action: "updated", ids: unique(created.map((r) => r.blockId)) });
      return created.map((r) => r.id);
    },
    async updateBlockItem(id: number, patch: BlockItemPatch): Promise<boolean> {
      const row = await repo.updateBlockItem(id, patch);
      if (row) events.push({ type: "blocks", action: "updated", ids: unique([row.blockId, ...(patch.blockId ? [patch.blockId] : [])]) });
      return row !== undefined;
    },
    async deleteBlockItem(id: number): Promise<boolean> {
      const row = await repo.deleteBlockItem(id);
      if (row) events.push({ type: "blocks", action: "updated", ids: [row.blockId] });
      return row !== undefined;
    },

    async upsertSourceSite(row: NewSourceSite): Promise<void> {
      await repo.upsertSourceSite(row);
      events.push({ type: "sources", action: "updated", codes: [row.code] });
    },
    async updateSourceSite(code: string, patch: SourceSitePatch): Promise<boolean> {
      const found = await repo.updateSourceSite(code, patch);
      if (found) events.push({ type: "sources", action: "updated", codes: [code] });
      return found;
    },
    /** Fails (foreign key) while items still come from the site. */
    async deleteSourceSite(code: string): Promise<boolean> {
      const found = await repo.deleteSourceSite(code);
      if (found) events.push({ type: "sources", action: "deleted", codes: [code] });
      return found;
    },
  };
}

export type CatalogueWriter = ReturnType<typeof writer>;

/**
 * The catalogue write service (ADR 0016): the only code that inserts, updates or deletes items,
 * categories, blocks, block items and source sites. Every write runs in a transaction, derives
 * the computed columns in one place (derive.ts), and after the commit publishes what changed on
 * the event bus, which every cache listens to. Writers never invalidate caches by hand.
 *
 * One-off writes: `writes.updateItem(…)`. Several writes in one transaction, or together with
 * rows of the caller's own tables (a like and its count):
 * `writes.transaction(async (w, tx) => { …tx.insert(likes)…; await w.addToItemCounts(id, { likes: 1 }); })`.
 */
export function catalogueWriteService(db: AppDatabase, bus: EventBus) {
  async function transaction<T>(work: (w: CatalogueWriter, tx: Tx) => Promise<T>): Promise<T> {
    const events: CatalogueEvent[] = [];
    const result = await db.transaction((tx) => work(writer(tx, events), tx));
    // Every instance has dropped what changed before the writer answers (ADR 0039).
    await Promise.all(events.map((event) => bus.publish(event)));
    return result;
  }
  const one =
    <A extends unknown[], R>(pick: (w: CatalogueWriter) => (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      transaction((w) => pick(w)(...args));

  return {
    transaction,
    createItems: one((w) => w.createItems),
    createItem: async (row: NewItem): Promise<number> => (await transaction((w) => w.createItems([row])))[0],
    updateItem: one((w) => w.updateItem),
    setItemsStatus: one((w) => w.setItemsStatus),
    deleteItems: one((w) => w.deleteItems),
    addToItemCounts: one((w) => w.addToItemCounts),
    createCategories: one((w) => w.createCategories),
    updateCategory: one((w) => w.updateCategory),
    deleteCategory: one((w) => w.deleteCategory),
    createBlock: one((w) => w.createBlock),
    updateBlock: one((w) => w.updateBlock),
    deleteBlock: one((w) => w.deleteBlock),
    createBlockItems: one((w) => w.createBlockItems),
    updateBlockItem: one((w) => w.updateBlockItem),
    deleteBlockItem: one((w) => w.deleteBlockItem),
    upsertSourceSite: one((w) => w.upsertSourceSite),
    updateSourceSite: one((w) => w.updateSourceSite),
    deleteSourceSite: one((w) => w.deleteSourceSite),

    /**
     * Folds batched view counts into items.view_count (view-buffer.ts). No event: a suite's
     * page shows its exact count without it, and lists take view counts as they come.
     */
    foldViewDeltas: (limit: number): Promise<number> => catalogueWriteRepo(db).foldViewDeltas(limit),
  };
}

export type CatalogueWriteService = ReturnType<typeof catalogueWriteService>;
