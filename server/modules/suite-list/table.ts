import { type SQL, sql } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import { items } from "../../db/schema/index.js";
import { type AdminTableDefinition, defineAdminTable, epochOf } from "../../http/admin-table.js";
import { likePattern } from "../search/search-text.js";

/** The suite table's alias (the repository's FROM: `items i`). */
export const i = alias(items, "i");

/**
 * The suite table's columns (ADMIN-API.md: the CMS addon's archive fields), over `items i`.
 * Time columns filter as Unix seconds but sort by the timestamp, which the indexes hold.
 */
const id = i.id;
const time = (column: AnyPgColumn) => ({ expr: epochOf(column), orderExpr: column, type: "time" as const, notNull: true });

const columns = {
    id: { expr: id, type: "number", notNull: true },
    channel_id: { expr: i.categoryId, type: "number" },
    model_id: { expr: sql`(case when ${i.kind} = 'mix' then 2 else 1 end)`, type: "number", notNull: true },
    title: { expr: i.title, type: "text", notNull: true },
    price: { expr: i.price, type: "number", notNull: true },
    views: { expr: i.viewCount, type: "number", notNull: true },
    comments: { expr: i.commentCount, type: "number", notNull: true },
    // The original's manual order; we have none, so every row weighs 0 and the id decides.
    weigh: { expr: sql`0`, orderExpr: id, type: "number", notNull: true },
    status: { expr: i.status, type: "text", notNull: true },
    createtime: time(i.createdAt),
    updatetime: time(i.updatedAt),
    publishtime: time(i.publishedAt),
} satisfies AdminTableDefinition["columns"];

export const suiteTable = defineAdminTable({ columns, search: titleOrIdSearch, tieBreak: id, from: sql`${items} ${i}` });

/**
 * `search`: the id, or the title contains the text (case-insensitive). The trigram index of
 * `search_text` (the normalized title and artist, and every Han character and pair as a word)
 * finds the candidates and estimates well how many there are; the title test is `strpos`, whose
 * selectivity PostgreSQL leaves at its default instead of multiplying LIKE's tiny guess in. So
 * for a keyword with many matches the planner walks the order's index and stops at the page,
 * and for a rare one it reads the few candidates from the trigram index.
 */
function titleOrIdSearch(term: string): SQL {
  const prefilter = likePattern(term);
  const title = sql`strpos(lower(${i.title}), ${term.toLowerCase()}) > 0`;
  const byTitle = prefilter ? sql`(${i.searchText} like ${prefilter} and ${title})` : title;
  return /^\d{1,9}$/u.test(term) ? sql`(${byTitle} or ${i.id} = ${Number(term)})` : byTitle;
}
