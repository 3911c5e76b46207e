import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "./columns.js";

/**
 * Source plugins in MusicFree's protocol (issue 21, ADR 0048): one row per platform, the source
 * it serves as (its own, or a built-in site's it replaces), and the versions installed, kept so
 * that an update can be rolled back in one step.
 */
export const sourcePlugins = pgTable(
  "source_plugins",
  {
    platform: text("platform").primaryKey(),
    /** The `source_sites.code` it serves as: its own (`p-…`) or a built-in's it replaces. */
    sourceCode: text("source_code").notNull(),
    /** Replaces the built-in adapter of `source_code` (an operator's choice). */
    replacesBuiltin: boolean("replaces_builtin").notNull().default(false),
    enabled: boolean("enabled").notNull().default(false),
    /** The plugin's user variables as set in the back office (MusicFree's env.getUserVariables()). */
    variables: jsonb("variables").$type<Record<string, string>>().notNull().default({}),
    currentVersionId: integer("current_version_id").references((): AnyPgColumn => pluginVersions.id),
    previousVersionId: integer("previous_version_id").references((): AnyPgColumn => pluginVersions.id),
    /** Why it was switched off automatically (it kept misbehaving); null when an admin did it. */
    disabledReason: text("disabled_reason"),
    /** Where it was installed from (a URL, or a subscription's); null for an upload. */
    origin: text("origin"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("source_plugins_source_code_uq").on(t.sourceCode)],
);

export const pluginVersions = pgTable(
  "plugin_versions",
  {
    id: idColumn(),
    platform: text("platform").notNull(),
    version: text("version").notNull(),
    code: text("code").notNull(),
    sha256: text("sha256").notNull(),
    /** What it exported when loaded: author, srcUrl, supportedSearchType, userVariables, methods. */
    meta: jsonb("meta").$type<Record<string, unknown>>().notNull(),
    installedBy: text("installed_by"),
    /** Where this version came from (a URL, or a subscription's); null for an upload. */
    origin: text("origin"),
    createdAt: createdAt(),
  },
  (t) => [index("plugin_versions_platform_idx").on(t.platform, t.id)],
);
