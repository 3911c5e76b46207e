import type { SiteSettingsInput } from "@contracts/admin-content";
import { DEFAULT_SITE_SETTINGS, type SiteSettings } from "@contracts/site";
import { eq, sql } from "drizzle-orm";
import { appSettings } from "../../db/schema/index.js";
import type { AppDatabase } from "../../db/types.js";
import type { EventBus } from "../../events/bus.js";
import { type CacheRegistry, jsonBytes } from "../../lib/cache.js";
import { tags } from "../../lib/cache-tags.js";
import type { AuditActor, AuditService } from "../audit/service.js";

/** The row of app_settings that holds them (ADR 0030). */
export const SITE_SETTINGS_KEY = "site";
/** Kept until a save publishes `settings`; read again after this long anyway (edits by hand in SQL). */
export const SITE_SETTINGS_CACHE_MS = 60_000;

/** A stored value read leniently: a field missing or of the wrong type falls back to its default. */
function readStored(value: unknown): SiteSettings {
  const stored = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  const pick = (key: keyof SiteSettings) => (typeof stored[key] === "string" ? (stored[key] as string) : DEFAULT_SITE_SETTINGS[key]);
  return { title: pick("title") || DEFAULT_SITE_SETTINGS.title, keywords: pick("keywords"), description: pick("description"), footer: pick("footer"), partnerText: pick("partnerText") };
}

/**
 * The site's title, keywords, description, footer and partner text (站点设置): one JSON row in
 * app_settings. Every public page reads them through `get()` (kept in one cache entry, which
 * `title()` and `titleNow()` read too); a save writes the row and its audit record in one
 * transaction and then publishes `settings`, which drops this cache and the home page's, so the
 * next request shows the change.
 */
export function siteSettingsService(db: AppDatabase, { caches, bus, audit }: { caches: CacheRegistry; bus: EventBus; audit: AuditService }) {
  const cache = caches.create<SiteSettings>({ name: "site-settings", maxEntries: 1, maxBytes: 256 * 1024, sizeOf: jsonBytes, freshMs: SITE_SETTINGS_CACHE_MS, tagsOf: () => [tags.settings] });

  async function load(executor: Pick<AppDatabase, "select"> = db): Promise<SiteSettings> {
    const [row] = await executor.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, SITE_SETTINGS_KEY));
    return readStored(row?.value);
  }

  const get = (): Promise<SiteSettings> => cache.get("", () => load());

  return {
    get,

    /** The title, or the default when the settings cannot be read (the API docs, the start-up line). */
    title: (): Promise<string> => get().then((site) => site.title, () => DEFAULT_SITE_SETTINGS.title),

    /**
     * The title without waiting, for the early error pages (a bad Host, ADR 0043): they must
     * never wait on, nor fail with, the database. The kept settings' title (an old one too,
     * while it is read again), else the default; what is missing or old is read in the
     * background for the next answer (one shared read, whoever asks).
     */
    titleNow(): string {
      const fresh = cache.getFresh("");
      if (fresh) return fresh.title;
      // Before `get`: past its time the kept value is replaced by the load it starts.
      const kept = cache.peek("");
      get().catch(() => undefined); // a failed read is not kept: the next one tries again
      return kept?.title ?? DEFAULT_SITE_SETTINGS.title;
    },

    /** Saves all five fields (the form sends them all); answers what is stored now. */
    async update(actor: AuditActor, input: SiteSettingsInput): Promise<SiteSettings> {
      const after: SiteSettings = { ...input };
      await db.transaction(async (tx) => {
        // The row is locked while we read "before", so two saves are audited in their order.
        await tx.select({ key: appSettings.key }).from(appSettings).where(eq(appSettings.key, SITE_SETTINGS_KEY)).for("update");
        const before = await load(tx);
        await tx
          .insert(appSettings)
          .values({ key: SITE_SETTINGS_KEY, value: after })
          .onConflictDoUpdate({ target: appSettings.key, set: { value: after, updatedAt: sql`now()` } });
        await audit.record(actor, { action: "settings.update", targetType: "settings", targetId: SITE_SETTINGS_KEY, before, after }, tx);
      });
      await bus.publish({ type: "settings", keys: [SITE_SETTINGS_KEY] });
      // Read again now that the event dropped them: `titleNow` (which never reads) has the new
      // title from this answer on. The save stands even if this read fails.
      await get().catch(() => undefined);
      return after;
    },
  };
}

export type SiteSettingsService = ReturnType<typeof siteSettingsService>;
