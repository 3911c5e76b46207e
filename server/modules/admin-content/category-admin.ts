import type { CategoryInput, CategoryPatchInput, CategoryRow, SortMove } from "@contracts/admin-content";
import { categoryTexts as t } from "@contracts/admin-content-texts";
import type { AdminTableQuery } from "@contracts/admin-table";
import { badRequest, notFound } from "../../errors.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import type { CatalogueWriteService, CatalogueWriter } from "../catalogue-write/service.js";
import type { CategoryPatch } from "../catalogue-write/types.js";
import { adminContentRepo } from "./repo.js";
import { sqlState, UNIQUE_VIOLATION } from "./pg-errors.js";
import { moveTo, sortChange } from "./sort-order.js";
import { categoryTable } from "./tables.js";
import type { AppDatabase } from "../../db/types.js";

type Tx = Parameters<Parameters<CatalogueWriteService["transaction"]>[0]>[1];

/** API field names → the write service's columns (only the fields the request names). */
function toPatch(input: CategoryPatchInput): CategoryPatch {
  const patch: CategoryPatch = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.diyname !== undefined) patch.diyname = input.diyname;
  if (input.sort !== undefined) patch.sort = input.sort;
  if (input.parent_id !== undefined) patch.parentId = input.parent_id;
  if (input.enabled !== undefined) patch.enabled = input.enabled;
  if (input.model_id !== undefined) patch.modelId = input.model_id;
  if (input.seo_title !== undefined) patch.seoTitle = input.seo_title;
  if (input.seo_keywords !== undefined) patch.seoKeywords = input.seo_keywords;
  if (input.seo_description !== undefined) patch.seoDescription = input.seo_description;
  return patch;
}

/** A slug taken by a save that raced ours: the unique index answers, we say it in Chinese. */
async function slugGuard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (sqlState(err) === UNIQUE_VIOLATION) throw badRequest(t.diynameTaken);
    throw err;
  }
}

/**
 * The back office's categories (issue 12): the table, and create / edit / delete through the
 * write service (the navigation, /sort pages and home drop their kept answers on its event),
 * each with its audit record in the same transaction.
 */
export function categoryAdminService(db: AppDatabase, { writes, audit }: { writes: CatalogueWriteService; audit: AuditService }) {
  const reads = adminContentRepo(db);

  /** The parent must exist and must not be the category itself or one of its descendants. */
  async function checkParent(tx: Tx, id: number | null, parentId: number | null): Promise<void> {
    if (parentId === null) return;
    const repo = adminContentRepo(tx);
    if (!(await repo.category(parentId))) throw badRequest(t.parentMissing);
    if (id !== null && (await repo.ancestorsOf(parentId)).includes(id)) throw badRequest(t.parentCycle);
  }

  return {
    table(query: AdminTableQuery) {
      // The menu's order by default: sort ascending, then id.
      const q = query.sort === undefined ? { ...query, sort: "sort", order: query.order ?? "asc" } : query;
      return reads.categoryTable(categoryTable(q));
    },

    options: () => reads.categoryOptions(),

    async create(actor: AuditActor, input: CategoryInput): Promise<CategoryRow> {
      return slugGuard(() =>
        writes.transaction(async (w: CatalogueWriter, tx) => {
          const repo = adminContentRepo(tx);
          if (await repo.diynameTaken(input.diyname)) throw badRequest(t.diynameTaken);
          await checkParent(tx, null, input.parent_id);
          const [created] = await w.createCategories([
            {
              name: input.name,
              diyname: input.diyname,
              sort: input.sort,
              parentId: input.parent_id,
              enabled: input.enabled,
              modelId: input.model_id,
              seoTitle: input.seo_title,
              seoKeywords: input.seo_keywords,
              seoDescription: input.seo_description,
            },
          ]);
          const after = (await repo.category(created!.id))!;
          await audit.record(actor, { action: "category.create", targetType: "category", targetId: after.id, after }, tx);
          return after;
        }),
      );
    },

    async update(actor: AuditActor, id: number, input: CategoryPatchInput): Promise<CategoryRow> {
      return slugGuard(() =>
        writes.transaction(async (w, tx) => {
          const repo = adminContentRepo(tx);
          const before = await repo.category(id, true);
          if (!before) throw notFound(t.missing);
          if (input.diyname !== undefined && (await repo.diynameTaken(input.diyname, id))) throw badRequest(t.diynameTaken);
          if (input.parent_id !== undefined) await checkParent(tx, id, input.parent_id);
          await w.updateCategory(id, toPatch(input));
          const after = (await repo.category(id))!;
          await audit.record(actor, { action: "category.update", targetType: "category", targetId: id, before, after }, tx);
          return after;
        }),
      );
    },

    /**
     * Drag-to-sort: `id` takes the place of `to` in the menu's order, every category is renumbered
     * (only the changed ones written), with one audit record, in one transaction.
     */
    async move(actor: AuditActor, { id, to }: SortMove): Promise<void> {
      await writes.transaction(async (w, tx) => {
        const order = await adminContentRepo(tx).categoriesInOrder();
        if (!order.some((r) => r.id === id) || !order.some((r) => r.id === to)) throw notFound(t.missing);
        const changes = moveTo(order, id, to);
        for (const change of changes) await w.updateCategory(change.id, { sort: change.sort });
        await audit.record(actor, { action: "category.sort", targetType: "category", targetId: id, ...sortChange(order, changes), detail: { to } }, tx);
      });
    },

    /** Refused while suites or sub-categories are in it: nothing is moved out of sight silently. */
    async delete(actor: AuditActor, id: number): Promise<void> {
      await writes.transaction(async (w, tx) => {
        const repo = adminContentRepo(tx);
        const before = await repo.category(id, true);
        if (!before) throw notFound(t.missing);
        const suites = await repo.itemCount(id);
        if (suites > 0) throw badRequest(t.hasSuites(suites));
        const children = await repo.childCount(id);
        if (children > 0) throw badRequest(t.hasChildren(children));
        await w.deleteCategory(id);
        await audit.record(actor, { action: "category.delete", targetType: "category", targetId: id, before }, tx);
      });
    },
  };
}

export type CategoryAdminService = ReturnType<typeof categoryAdminService>;
