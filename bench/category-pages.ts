import { sql } from "drizzle-orm";
import { queryRows } from "../server/db/sql.js";
import type { AppDatabase } from "../server/db/types.js";

/** Every enabled category with how many list pages (10 a page) its suites and its children's fill. */
export function categoryPageCounts(db: AppDatabase): Promise<{ diyname: string; pages: number }[]> {
  return queryRows<{ diyname: string; pages: number }>(
    db,
    sql`select c.diyname, ceil(count(i.id) / 10.0)::int as pages
          from categories c join items i on i.status = 'normal'
           and i.category_id in (select id from categories x where x.id = c.id or (x.parent_id = c.id and x.enabled))
         where c.enabled group by c.diyname order by c.diyname`,
  );
}
