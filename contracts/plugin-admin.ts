import { z } from "zod";
import { trialAnswerSchema } from "./recorded";
import { PLUGIN_BATCH_MAX, PLUGIN_KEYWORD_MAX, PLUGIN_URL_MAX, PLUGIN_URL_PATTERN, PLUGIN_VARIABLE_MAX, pluginAdminMessages } from "./plugin-admin-texts";

export * from "./plugin-admin-texts";

/**
 * The back office's source plugins (issue 21, ADR 0048): MusicFree-protocol plugins installed by
 * upload, URL or subscription, tried, switched, updated and rolled back while the site runs.
 */

export const pluginPlatformParamsSchema = z.object({ platform: z.string().min(1).max(64).describe("插件的平台名称 (platform)") });

export const pluginCapabilitiesSchema = z.object({ search: z.boolean(), play: z.boolean(), details: z.boolean(), topLists: z.boolean() });

export const pluginAdminSchema = z.object({
  platform: z.string(),
  version: z.string(),
  author: z.string().nullable(),
  srcUrl: z.string().nullable(),
  /** The source it serves as: its own `p-…`, or the built-in site it replaces. */
  source: z.string(),
  replacesBuiltin: z.boolean(),
  enabled: z.boolean(),
  /** Why it was switched off automatically; null when on or switched off by an admin. */
  disabledReason: z.string().nullable(),
  capabilities: pluginCapabilitiesSchema,
  userVariables: z.array(z.object({ key: z.string(), name: z.string(), hint: z.string().nullable() })),
  variables: z.record(z.string(), z.string()),
  previousVersion: z.string().nullable(),
  origin: z.string().nullable(),
  sha256: z.string(),
  installedAt: z.string(),
});
export type PluginAdminAnswer = z.infer<typeof pluginAdminSchema>;

export const pluginAdminListSchema = z.object({ plugins: z.array(pluginAdminSchema) });

export const pluginInstallUrlSchema = z.object({
  url: z.string().max(PLUGIN_URL_MAX).regex(PLUGIN_URL_PATTERN, pluginAdminMessages.badUrl).optional(),
  /** A MusicFree subscription list `{"plugins":[…]}` to install every plugin of. */
  subscription: z.string().max(PLUGIN_URL_MAX).regex(PLUGIN_URL_PATTERN, pluginAdminMessages.badUrl).optional(),
});

export const pluginPatchSchema = z
  .object({
    enabled: z.boolean().optional(),
    variables: z.record(z.string().max(64), z.string().max(PLUGIN_VARIABLE_MAX)).optional(),
    /** A built-in source code it replaces, or null to serve as its own source. */
    replaces: z.string().max(32).nullable().optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: pluginAdminMessages.nothingToChange });
export type PluginPatch = z.infer<typeof pluginPatchSchema>;

/** POST /api/pandaadmin/plugins/switch: 批量启用/停用, every plugin named or none. */
export const pluginSwitchBodySchema = z.strictObject({
  platforms: z
    .array(z.string().min(1).max(64), { error: pluginAdminMessages.platformsRequired })
    .min(1, { error: pluginAdminMessages.platformsRequired })
    .max(PLUGIN_BATCH_MAX, { error: pluginAdminMessages.tooManyPlatforms })
    .describe(`插件的平台名称, 1 到 ${PLUGIN_BATCH_MAX} 个`),
  enabled: z.boolean({ error: "enabled 须为 true 或 false" }).describe("true 启用 / false 停用"),
});
export const pluginSwitchAnswerSchema = z.object({ plugins: z.array(pluginAdminSchema) });

export const pluginTryBodySchema = z.object({ keyword: z.string().trim().min(1).max(PLUGIN_KEYWORD_MAX) });
export const pluginTryAnswerSchema = z.object({
  ms: z.number(),
  ok: z.boolean(),
  items: z.array(z.object({ id: z.string(), title: z.string(), artist: z.string().nullable(), cover: z.string().nullable(), duration: z.number().nullable() })),
  /** The first hit's playable address, when the plugin resolves one. */
  media: z.object({ url: z.string(), headers: z.record(z.string(), z.string()) }).nullable(),
  error: z.string().nullable(),
  /** The answers the plugin's requests got, each savable as a sample (issue 22). */
  answers: z.array(trialAnswerSchema),
});
export type PluginTryAnswer = z.infer<typeof pluginTryAnswerSchema>;

/**
 * A newer version of an installed platform brought by upload, address or subscription: stored,
 * not used, until it is replayed and activated (issue 22, ADR 0051).
 */
export const pluginStagedVersionSchema = z.object({
  platform: z.string(),
  versionId: z.number().int(),
  version: z.string(),
  /** The version in use, which stays in use until `activate`. */
  current: z.string(),
});
export type PluginStagedVersion = z.infer<typeof pluginStagedVersionSchema>;

export const pluginInstalledSchema = z.object({
  /** New platforms, installed switched off. */
  installed: z.array(pluginAdminSchema),
  /** Newer versions of installed platforms, stored and not yet used. */
  staged: z.array(pluginStagedVersionSchema),
  failed: z.array(z.object({ name: z.string(), error: z.string() })),
});
export type PluginInstalledAnswer = z.infer<typeof pluginInstalledSchema>;
export const pluginDeletedSchema = z.object({ platform: z.string() });

/** MusicFree's subscription format. */
export const pluginSubscriptionSchema = z.object({ plugins: z.array(z.object({ name: z.string().optional(), url: z.string(), version: z.string().optional() })).max(200) });
