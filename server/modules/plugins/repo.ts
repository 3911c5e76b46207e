import { and, asc, desc, eq, inArray, lt } from "drizzle-orm";
import type { AppDatabase } from "../../db/types.js";
import { pluginVersions, sourcePlugins } from "../../db/schema/index.js";

/** The SQL of source plugins (issue 21): their rows and their installed versions. */

export type PluginRow = typeof sourcePlugins.$inferSelect;
export type PluginVersionRow = typeof pluginVersions.$inferSelect;
export type PluginWithVersion = PluginRow & { current: PluginVersionRow; previous: PluginVersionRow | null };

/** Versions kept per platform (the current, the previous and a few before). */
const VERSIONS_KEPT = 5;

export function pluginRepo(db: Pick<AppDatabase, "select" | "insert" | "update" | "delete">) {
  async function version(id: number | null): Promise<PluginVersionRow | null> {
    if (id === null) return null;
    const [row] = await db.select().from(pluginVersions).where(eq(pluginVersions.id, id));
    return row ?? null;
  }
  async function withVersions(row: PluginRow | undefined): Promise<PluginWithVersion | undefined> {
    if (!row) return undefined;
    const current = await version(row.currentVersionId);
    if (!current) return undefined;
    return { ...row, current, previous: await version(row.previousVersionId) };
  }
  return {
    /** Every plugin with its current and previous version: two queries, whatever their number. */
    async list(): Promise<PluginWithVersion[]> {
      const rows = await db.select().from(sourcePlugins).orderBy(asc(sourcePlugins.createdAt), asc(sourcePlugins.platform));
      const ids = rows.flatMap((r) => [r.currentVersionId, r.previousVersionId]).filter((id): id is number => id !== null);
      const versions = ids.length ? await db.select().from(pluginVersions).where(inArray(pluginVersions.id, ids)) : [];
      const byId = new Map(versions.map((v) => [v.id, v]));
      return rows.flatMap((row) => {
        const current = row.currentVersionId === null ? undefined : byId.get(row.currentVersionId);
        if (!current) return [];
        return [{ ...row, current, previous: (row.previousVersionId === null ? undefined : byId.get(row.previousVersionId)) ?? null }];
      });
    },
    async get(platform: string): Promise<PluginWithVersion | undefined> {
      const [row] = await db.select().from(sourcePlugins).where(eq(sourcePlugins.platform, platform));
      return withVersions(row);
    },
    version,
    async bySource(code: string): Promise<PluginRow | undefined> {
      const [row] = await db.select().from(sourcePlugins).where(eq(sourcePlugins.sourceCode, code));
      return row;
    },
    async addVersion(row: typeof pluginVersions.$inferInsert): Promise<number> {
      const [inserted] = await db.insert(pluginVersions).values(row).returning({ id: pluginVersions.id });
      return inserted!.id;
    },
    async insert(row: typeof sourcePlugins.$inferInsert): Promise<void> {
      await db.insert(sourcePlugins).values(row);
    },
    async update(platform: string, patch: Partial<typeof sourcePlugins.$inferInsert>): Promise<void> {
      await db.update(sourcePlugins).set({ ...patch, updatedAt: new Date() }).where(eq(sourcePlugins.platform, platform));
    },
    async remove(platform: string): Promise<void> {
      await db.delete(sourcePlugins).where(eq(sourcePlugins.platform, platform));
      await db.delete(pluginVersions).where(eq(pluginVersions.platform, platform));
    },
    /** Drops versions older than the newest few that neither the current nor the previous is. */
    async prune(platform: string, keep: number[]): Promise<void> {
      const rows = await db.select({ id: pluginVersions.id }).from(pluginVersions).where(eq(pluginVersions.platform, platform)).orderBy(desc(pluginVersions.id));
      const cutoff = rows[VERSIONS_KEPT - 1]?.id;
      if (cutoff === undefined) return;
      const old = await db.select({ id: pluginVersions.id }).from(pluginVersions).where(and(eq(pluginVersions.platform, platform), lt(pluginVersions.id, cutoff)));
      for (const { id } of old) if (!keep.includes(id)) await db.delete(pluginVersions).where(eq(pluginVersions.id, id));
    },
  };
}

export type PluginRepo = ReturnType<typeof pluginRepo>;
