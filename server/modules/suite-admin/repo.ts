import { and, asc, eq, isNull } from "drizzle-orm";
import type { SuiteFormData } from "@contracts/suite-form";
import { suitePath } from "@contracts/paths";
import { categories, items, sourceSites } from "../../db/schema/index.js";
import type { Executor } from "../catalogue-write/repo.js";

/**
 * Reads of the suite form (issue 12). Items, categories and sites are written only by the write
 * service; this reads them, inside the writing transaction when given one.
 */
export function suiteAdminRepo(db: Pick<Executor, "select">) {
  return {
    /** The item as the form edits it (and as the audit trail keeps it), or null. */
    async formData(id: number): Promise<SuiteFormData | null> {
      const [row] = await db
        .select({
          id: items.id,
          title: items.title,
          categoryId: items.categoryId,
          artist: items.artist,
          cover: items.cover,
          playUrl: items.playUrl,
          playtype: items.playtype,
          kind: items.kind,
          durationSec: items.durationSec,
          sizeBytes: items.sizeBytes,
          sourceSite: items.sourceSite,
          vipdown: items.vipdown,
          price: items.price,
          weburl: items.weburl,
          webPassword: items.webPassword,
          djlist: items.djlist,
          status: items.status,
          recommended: items.recommended,
        })
        .from(items)
        .where(and(eq(items.id, id), isNull(items.deletedAt))); // one in the recycle bin is restored before it is edited
      return row ? { ...row, djlist: row.djlist ?? [], url: suitePath(row.id) } : null;
    },

    async categoryExists(id: number): Promise<boolean> {
      const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id));
      return !!row;
    },

    async siteExists(code: string): Promise<boolean> {
      const [row] = await db.select({ code: sourceSites.code }).from(sourceSites).where(eq(sourceSites.code, code));
      return !!row;
    },

    async categories() {
      return db
        .select({ id: categories.id, name: categories.name, parentId: categories.parentId })
        .from(categories)
        .orderBy(asc(categories.sort), asc(categories.id));
    },

    async sites() {
      return db.select({ code: sourceSites.code, name: sourceSites.name }).from(sourceSites).orderBy(asc(sourceSites.sort), asc(sourceSites.code));
    },
  };
}
