import { z } from "zod";

/**
 * The back office's source plugins (issue 21, ADR 0048): MusicFree-protocol plugins installed by
 * upload, URL or subscription, tried, switched, updated and rolled back while the site runs.
 */

export const pluginAdminMessages = {
  notFound: "插件不存在",
  noSource: "请上传插件文件 (file) 或提供插件地址 (url)",
  badUrl: "插件地址须以 http:// 或 https:// 开头",
  fetchFailed: "无法下载插件：",
  tooLarge: "插件文件过大 (最多 2 MB)",
  invalid: "插件无效：",
  noPlatform: "插件缺少 platform (平台名称)",
  notNewer: "该平台已安装相同或更新的版本",
  noPrevious: "没有可回滚的上一个版本",
  unknownBuiltin: "只能替换内置来源 djuu、172minx 或 vvvdj",
  builtinTaken: "该内置来源已由另一个插件替换",
  nothingToChange: "没有要修改的内容",
  subscriptionInvalid: "订阅格式无效：须为 {\"plugins\":[{\"name\",\"url\",\"version\"}]}",
  tryFailed: "试用失败：",
} as const;

export const PLUGIN_MAX_BYTES = 2 * 1024 * 1024;

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
  url: z.string().max(2048).regex(/^https?:\/\//iu, pluginAdminMessages.badUrl).optional(),
  /** A MusicFree subscription list `{"plugins":[…]}` to install every plugin of. */
  subscription: z.string().max(2048).regex(/^https?:\/\//iu, pluginAdminMessages.badUrl).optional(),
});

export const pluginPatchSchema = z
  .object({
    enabled: z.boolean().optional(),
    variables: z.record(z.string().max(64), z.string().max(2048)).optional(),
    /** A built-in source code it replaces, or null to serve as its own source. */
    replaces: z.string().max(32).nullable().optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: pluginAdminMessages.nothingToChange });
export type PluginPatch = z.infer<typeof pluginPatchSchema>;

export const pluginTryBodySchema = z.object({ keyword: z.string().trim().min(1).max(100) });
export const pluginTryAnswerSchema = z.object({
  ms: z.number(),
  ok: z.boolean(),
  items: z.array(z.object({ id: z.string(), title: z.string(), artist: z.string().nullable(), cover: z.string().nullable(), duration: z.number().nullable() })),
  /** The first hit's playable address, when the plugin resolves one. */
  media: z.object({ url: z.string(), headers: z.record(z.string(), z.string()) }).nullable(),
  error: z.string().nullable(),
});
export type PluginTryAnswer = z.infer<typeof pluginTryAnswerSchema>;

export const pluginInstalledSchema = z.object({ installed: z.array(pluginAdminSchema), failed: z.array(z.object({ name: z.string(), error: z.string() })) });
export const pluginDeletedSchema = z.object({ platform: z.string() });

/** MusicFree's subscription format. */
export const pluginSubscriptionSchema = z.object({ plugins: z.array(z.object({ name: z.string().optional(), url: z.string(), version: z.string().optional() })).max(200) });

/** Compares MusicFree-style versions (`1.2.10` > `1.2.9`); non-numeric parts compare as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/u);
  const pb = b.split(/[.-]/u);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const x = pa[i] ?? "0";
    const y = pb[i] ?? "0";
    const nx = Number(x);
    const ny = Number(y);
    const diff = Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : x.localeCompare(y);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}
