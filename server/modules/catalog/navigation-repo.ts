import { asc, eq } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { categories } from "../../db/schema/index.js";

export interface NavCategoryRow {
  id: number;
  name: string;
  diyname: string;
  parentId: number | null;
  icon: string | null;
}

/** Enabled categories in menu order. */
export function navigationRepo(db: AppDatabase) {
  return {
    listEnabledCategories(): Promise<NavCategoryRow[]> {
      return db
        .select({
          id: categories.id,
          name: categories.name,
          diyname: categories.diyname,
          parentId: categories.parentId,
          icon: categories.icon,
        })
        .from(categories)
        .where(eq(categories.enabled, true))
        .orderBy(asc(categories.sort), asc(categories.id));
    },
  };
}
