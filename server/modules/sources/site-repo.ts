import { and, asc, count, eq, max, or } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { appSettings, items, sourcePlugins, sourceSites } from "../../db/schema/index.js";

/** `app_settings` key: the built-in codes EXTERNAL_SOURCES last switched on (ADR 0047). */
const SEEDED_SWITCHES_KEY = "external_sources_applied";

/** One `source_sites` row as the sources module reads it (writes go through `services.writes`). */
export interface SourceSiteRow {
  code: string;
  name: string;
  logo: string | null;
  homepage: string;
  enabled: boolean;
  sort: number;
  adapterConfig: Record<string, unknown> | null;
  collectIntervalMinutes: number;
  /** An admin's timeout for the source; null = its default. */
  timeoutMs: number | null;
  /** The plugin that serves the source (its own, or a built-in it replaces while on); null when none does. */
  plugin: string | null;
}

const columns = {
  code: sourceSites.code,
  name: sourceSites.name,
  logo: sourceSites.logo,
  homepage: sourceSites.homepage,
  enabled: sourceSites.enabled,
  sort: sourceSites.sort,
  adapterConfig: sourceSites.adapterConfig,
  collectIntervalMinutes: sourceSites.collectIntervalMinutes,
  timeoutMs: sourceSites.timeoutMs,
  plugin: sourcePlugins.platform,
};

/** The plugin serving a site: its own source always; a built-in's only while the plugin is on (else the built-in serves). */
const servedByPlugin = and(eq(sourcePlugins.sourceCode, sourceSites.code), or(eq(sourcePlugins.replacesBuiltin, false), eq(sourcePlugins.enabled, true)));

export function sourceSiteRepo(db: AppDatabase) {
  return {
    /** Every site, in display order. */
    async list(): Promise<SourceSiteRow[]> {
      return db.select(columns).from(sourceSites).leftJoin(sourcePlugins, servedByPlugin).orderBy(asc(sourceSites.sort), asc(sourceSites.code));
    },
    async get(code: string): Promise<SourceSiteRow | undefined> {
      const [row] = await db.select(columns).from(sourceSites).leftJoin(sourcePlugins, servedByPlugin).where(eq(sourceSites.code, code));
      return row;
    },
    /** The next free place at the end of the list (a new source is shown last). */
    async nextSort(): Promise<number> {
      const [row] = await db.select({ value: max(sourceSites.sort) }).from(sourceSites);
      return (row?.value ?? 0) + 1;
    },
    /** The built-in codes EXTERNAL_SOURCES last switched on, or undefined before its first start. */
    async appliedSwitches(): Promise<string[] | undefined> {
      const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, SEEDED_SWITCHES_KEY));
      return Array.isArray(row?.value) ? row.value.filter((c): c is string => typeof c === "string") : undefined;
    },
    async rememberAppliedSwitches(codes: readonly string[]): Promise<void> {
      const value = [...codes];
      await db
        .insert(appSettings)
        .values({ key: SEEDED_SWITCHES_KEY, value })
        .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
    },
    /** Items of our catalogue that name the site (they keep it: such a site cannot be deleted). */
    async itemCount(code: string): Promise<number> {
      const [row] = await db.select({ value: count() }).from(items).where(eq(items.sourceSite, code));
      return Number(row?.value ?? 0);
    },
  };
}

export type SourceSiteRepo = ReturnType<typeof sourceSiteRepo>;
