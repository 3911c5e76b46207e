import { and, eq, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { items } from "../../db/schema/index.js";
import { selectRows } from "../../db/sql.js";
import { type CatalogueItemRow, catalogueItemFields, catalogueItemJoins, ci as i, visibleItem } from "./catalogue-item.js";

/** How many of a category's most viewed items are weighed for likeness to a title. */
export const RELATED_CANDIDATES = 200;

/** `%` and `_` match themselves in a LIKE pattern. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/gu, (c) => `\\${c}`);

export function relatedRepo(db: AppDatabase) {
  return {
    /** What the lists are about: the visible item's title, artist and category. */
    async subject(id: number) {
      const [row] = await db
        .select({ title: items.title, artist: items.artist, categoryId: items.categoryId })
        .from(items)
        .where(and(eq(items.id, id), sql`${items.status} = 'normal'`));
      return row;
    },

    /**
     * The artist's newest other visible items. `search_text` holds the lower-cased artist, so its
     * trigram index finds the candidates; the equality keeps only this exact artist.
     */
    byArtist(artist: string, exceptId: number, n: number): Promise<CatalogueItemRow[]> {
      const pattern = `%${likeLiteral(artist.toLowerCase())}%`;
      // Raw: the list's joins are the shared raw fragment (catalogue-item.ts).
      return selectRows(
        db,
        catalogueItemFields,
        (list) => sql`select ${list} from ${items} ${i} ${catalogueItemJoins}
              where ${visibleItem} and ${i.artist} = ${artist} and ${i.id} <> ${exceptId} and ${i.searchText} like ${pattern}
              order by ${i.publishedAt} desc, ${i.id} desc limit ${n}`,
      );
    },

    /**
     * Other visible items of the category most alike in title (trigram similarity), among its
     * RELATED_CANDIDATES most viewed (the hot index's range: bounded however large the category);
     * ties by views. `exceptIds` are left out (the suite, and what the artist's list shows).
     */
    alike(categoryId: number, title: string, exceptIds: readonly number[], n: number): Promise<CatalogueItemRow[]> {
      // Raw: a derived table of the index range (not `c`: the joins' category alias), then ranked (the builder cannot order a CTE by a function of it).
      return selectRows(
        db,
        catalogueItemFields,
        (list) => sql`with cand as (
                select ${i.id} as id from ${items} ${i}
                 where ${i.categoryId} = ${categoryId} and ${visibleItem}
                 order by ${i.viewCount} desc, ${i.id} desc limit ${RELATED_CANDIDATES}
              )
              select ${list} from cand join ${items} ${i} on ${i.id} = cand.id ${catalogueItemJoins}
               where not (${i.id} = any(${sql`array[${sql.join([...exceptIds, 0].map((x) => sql`${x}::int`), sql`, `)}]`}))
               order by similarity(${i.title}, ${title}) desc, ${i.viewCount} desc, ${i.id} desc limit ${n}`,
      );
    },
  };
}
