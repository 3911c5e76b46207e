/**
 * The back office's source plugins (issue 21): paths, limits, rules and messages both sides know.
 * No zod here: the browser imports this file (zod's object schemas probe `new Function`, which
 * the site's CSP refuses); plugin-admin.ts builds the server's schemas from these.
 */

/** Plugins one 批量启用/停用 may name (a subscription holds ~25; the cap only bounds the request). */
export const PLUGIN_BATCH_MAX = 50;

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
  sourceInUse: "刚有套曲引用了该插件的来源，请重试（来源会保留并停用）",
  platformsRequired: "请选择要操作的插件",
  tooManyPlatforms: `一次最多操作 ${PLUGIN_BATCH_MAX} 个插件`,
  missingSome: "部分插件不存在",
  switched: (enabled: boolean, n: number) => `已${enabled ? "启用" : "停用"} ${n} 个插件`,
} as const;

export const PLUGIN_MAX_BYTES = 2 * 1024 * 1024;
/** A plugin's or a subscription's address: http(s) only, at most this long. */
export const PLUGIN_URL_MAX = 2048;
export const PLUGIN_URL_PATTERN = /^https?:\/\//iu;
/** A user variable's value, and a try's keyword. */
export const PLUGIN_VARIABLE_MAX = 2048;
export const PLUGIN_KEYWORD_MAX = 100;

/** The built-in sites a plugin may serve as (ADR 0048), with the names the site shows. */
export const PLUGIN_REPLACEABLE_BUILTINS = [
  { code: "djuu", name: "DJUU" },
  { code: "172minx", name: "172Mix" },
  { code: "vvvdj", name: "清风DJ" },
] as const;
export type PluginReplaceableBuiltin = (typeof PLUGIN_REPLACEABLE_BUILTINS)[number]["code"];

export const pluginAdminPaths = {
  list: "/api/pandaadmin/plugins",
  install: "/api/pandaadmin/plugins",
  plugin: (platform: string) => `/api/pandaadmin/plugins/${encodeURIComponent(platform)}`,
  rollback: (platform: string) => `/api/pandaadmin/plugins/${encodeURIComponent(platform)}/rollback`,
  update: (platform: string) => `/api/pandaadmin/plugins/${encodeURIComponent(platform)}/update`,
  try: (platform: string) => `/api/pandaadmin/plugins/${encodeURIComponent(platform)}/try`,
  /** 批量启用/停用 `{platforms, enabled}`. */
  switch: "/api/pandaadmin/plugins/switch",
} as const;

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
