import { collectedItems } from "../db/schema/index.js";
import type { AppDatabase } from "../db/types.js";

export type CollectedFields = Partial<typeof collectedItems.$inferInsert> & { source: string; sourceId: string };

const SITES: Record<string, string> = {
  djuu: "https://www.djuu.com/play/{id}.html",
  "172minx": "https://www.172mix.com/play/{id}",
  vvvdj: "https://www.vvvdj.com/play/{id}.html",
};

/**
 * A collected row as the collector writes it (issue 11): normalised title, the source's code,
 * the absolute page address, the site's id, and the site's own fields in `raw`. Pending unless
 * told otherwise. Returns its id.
 */
export async function insertCollected(db: AppDatabase, fields: CollectedFields): Promise<number> {
  const sourceUrl = fields.sourceUrl ?? (SITES[fields.source] ?? `https://${fields.source}.example/play/{id}.html`).replace("{id}", fields.sourceId);
  const title = fields.title ?? `采集测试 ${fields.sourceId}`;
  const [row] = await db
    .insert(collectedItems)
    .values({
      title,
      sourceUrl,
      raw: { id: fields.sourceId, title, href: sourceUrl },
      lastSeenAt: new Date(),
      ...fields,
    })
    .returning({ id: collectedItems.id });
  return row!.id;
}
