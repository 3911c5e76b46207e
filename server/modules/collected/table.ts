import { sql } from "drizzle-orm";
import { collectedItems as c } from "../../db/schema/index.js";
import { column, defineAdminTable, titleOrIdSearch } from "../../http/admin-table.js";

/** The collected-data table's columns (filterable and sortable by these API names). */
export const collectedTable = defineAdminTable({
  columns: {
    id: column.number(c.id),
    title: column.text(c.title),
    source: column.text(c.source),
    status: column.number(c.status),
    source_url: column.text(c.sourceUrl),
    source_id: column.text(c.sourceId),
    artist: column.text(c.artist),
    kind: column.text(c.kind),
    playtype: column.text(c.playtype),
    source_category: column.text(c.sourceCategory),
    source_category_name: column.text(c.sourceCategoryName),
    duration: column.number(c.durationSec),
    size: column.number(c.sizeBytes),
    item_id: column.number(c.itemId),
    createtime: column.time(c.createdAt),
    processtime: column.time(c.processedAt),
    last_seen: column.time(c.lastSeenAt),
  },
  search: titleOrIdSearch(c.title, c.id),
  tieBreak: c.id,
  from: sql`${c}`,
});
