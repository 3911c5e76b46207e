import { z } from "zod";
import { SOURCE_TIMEOUT_MAX_MS, SOURCE_TIMEOUT_MIN_MS, sourceTimeoutMessage } from "./source-admin-texts";

/**
 * The back office's sources (issue 11, ADR 0026): every `source_sites` row and every source in
 * use, the generic sources' configurations (added or repaired while the site runs), and the
 * switches of any source.
 */

/** Sources one 批量启用/停用 may name (a site has a handful; the cap only bounds the request). */
export const SOURCE_BATCH_MAX = 50;

export const sourceAdminMessages = {
  /** Followed by what is wrong (the configuration's checker names the field). */
  invalidConfig: "来源配置无效：",
  codeMismatch: "配置中的 code 与地址中的来源代码不一致",
  builtinConfig: "内置来源由代码提供，不能用配置替换",
  pluginConfig: "这个来源由插件提供，请在来源插件中管理",
  builtinDelete: "内置来源不能删除",
  notFound: "来源不存在",
  hasItems: "该来源下还有条目，不能删除（可以停用）",
  nothingToChange: "没有要修改的内容",
  badLogo: "图标地址须以 / 或 http(s):// 开头",
  notInUse: "该来源未启用或没有适配器，无法试搜",
  badTimeout: sourceTimeoutMessage,
  codesRequired: "请选择要操作的来源",
  tooManyCodes: `一次最多操作 ${SOURCE_BATCH_MAX} 个来源`,
  missingSome: "部分来源不存在",
  switched: (enabled: boolean, n: number) => `已${enabled ? "启用" : "停用"} ${n} 个来源`,
} as const;

export const sourceCodeSchema = z.string().regex(/^[a-z0-9_-]{2,32}$/u, "来源代码无效").describe("来源代码 (djuu, 172minx…)");
export const sourceCodeParamsSchema = z.object({ code: sourceCodeSchema });

export const sourceAdminSchema = z.object({
  code: z.string(),
  name: z.string(),
  logo: z.string().nullable(),
  homepage: z.string(),
  enabled: z.boolean(),
  sort: z.number().int(),
  /** builtin: a code adapter; generic: configured by data (`config`); plugin: a source plugin (`plugin`); none: no adapter (本站). */
  adapter: z.enum(["builtin", "generic", "plugin", "none"]),
  /** The plugin (its platform) serving the source, else null. */
  plugin: z.string().nullable(),
  collectIntervalMinutes: z.number().int(),
  /** The timeout in effect (ms): the admin's, else the source's default; null when it has no adapter (本站). */
  timeoutMs: z.number().int().nullable(),
  /** True when no admin set one (`timeoutMs` is the source's default). */
  timeoutDefault: z.boolean(),
  /** The source's own default (ms), shown beside an admin's value; null without an adapter. */
  defaultTimeoutMs: z.number().int().nullable(),
  /** Searched and played now (enabled, and its adapter is running on this instance). */
  inUse: z.boolean(),
  /** A generic source's configuration as stored, else null. */
  config: z.record(z.string(), z.unknown()).nullable(),
});
export const sourceAdminListSchema = z.object({ sources: z.array(sourceAdminSchema) });
export type SourceAdminAnswer = z.infer<typeof sourceAdminSchema>;

/**
 * PUT /api/pandaadmin/sources/:code: a generic source's configuration (URL templates, CSS
 * selectors or JSON paths, encoding, headers, hosts; the server's `genericSourceConfig` checks
 * it and answers 来源配置无效：… naming the field).
 */
export const sourceConfigBodySchema = z.record(z.string(), z.unknown()).describe("通用来源配置 (JSON)");

/** PATCH /api/pandaadmin/sources/:code: the switches and shown fields of any source. */
export const sourcePatchSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    name: z.string().trim().min(1, "名称不能为空").max(40, "名称最多 40 个字").optional(),
    logo: z
      .string()
      .max(500)
      .regex(/^(\/|https?:\/\/)/u, sourceAdminMessages.badLogo)
      .nullable()
      .optional(),
    sort: z.number().int().min(-100_000).max(100_000).optional(),
    collectIntervalMinutes: z.number().int().min(0, "采集间隔不能为负").max(7 * 24 * 60, "采集间隔最多 7 天").optional(),
    /** null: back to the source's default. */
    timeoutMs: z
      .number({ error: sourceAdminMessages.badTimeout })
      .int(sourceAdminMessages.badTimeout)
      .min(SOURCE_TIMEOUT_MIN_MS, sourceAdminMessages.badTimeout)
      .max(SOURCE_TIMEOUT_MAX_MS, sourceAdminMessages.badTimeout)
      .nullable()
      .optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, sourceAdminMessages.nothingToChange);
export type SourcePatch = z.infer<typeof sourcePatchSchema>;

/** POST /api/pandaadmin/sources/switch: 批量启用/停用, every source named or none. */
export const sourceSwitchBodySchema = z.strictObject({
  codes: z
    .array(sourceCodeSchema, { error: sourceAdminMessages.codesRequired })
    .min(1, { error: sourceAdminMessages.codesRequired })
    .max(SOURCE_BATCH_MAX, { error: sourceAdminMessages.tooManyCodes })
    .describe(`来源代码, 1 到 ${SOURCE_BATCH_MAX} 个`),
  enabled: z.boolean({ error: "enabled 须为 true 或 false" }).describe("true 启用 / false 停用"),
});
export type SourceSwitch = z.infer<typeof sourceSwitchBodySchema>;
export const sourceSwitchAnswerSchema = z.object({ sources: z.array(sourceAdminSchema) });

export const sourceDeletedSchema = z.object({ code: z.string() });

/** POST /api/pandaadmin/sources/:code/try: one search against the source, first page, no cache. */
export const sourceTryBodySchema = z.strictObject({
  keyword: z.string({ error: "请输入搜索关键词" }).trim().min(1, { error: "请输入搜索关键词" }).max(50, { error: "关键词最多 50 个字" }),
});
export const sourceTryAnswerSchema = z.object({
  code: z.string(),
  /** Milliseconds the search took. */
  ms: z.number().int(),
  ok: z.boolean(),
  hasMore: z.boolean(),
  total: z.number().int().nullable(),
  items: z.array(
    z.object({
      sourceId: z.string(),
      title: z.string(),
      artist: z.string().nullable(),
      url: z.string(),
      cover: z.string().nullable(),
      duration: z.number().nullable(),
      kind: z.string(),
      raw: z.record(z.string(), z.unknown()),
    }),
  ),
  /** The adapter's failure, when it failed: its kind (timeout, layout…) and message. */
  error: z.object({ kind: z.string(), message: z.string(), status: z.number().int().nullable() }).nullable(),
});
export type SourceTryAnswer = z.infer<typeof sourceTryAnswerSchema>;
