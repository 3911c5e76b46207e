import type { PluginAdminAnswer, PluginInstalledAnswer, PluginStagedVersion, PluginTryAnswer } from "@contracts/plugin-admin";
import { adminTableMessages } from "@contracts/admin-table-texts";
import type { Envelope } from "../../../lib/api";

/** A plugin as GET /api/pandaadmin/plugins answers it (types only: no zod reaches the browser). */
export type PluginRow = PluginAdminAnswer;
export type PluginTry = PluginTryAnswer;
/** An install's answer: new platforms installed, newer versions of installed ones staged, failures. */
export type PluginInstalled = PluginInstalledAnswer;
/** A newer version stored and not yet used, to be replayed before it is activated (issue 22). */
export type PluginStaged = PluginStagedVersion;
/** What the screen says of a staged version. */
export const stagedText = (s: PluginStaged) => `已下载新版本 v${s.version}，回放样本后再启用`;

/** What a plugin declares it can do, as the screen's tags name it. */
export const CAPABILITY_TEXT: [keyof PluginRow["capabilities"], string, string][] = [
  ["search", "搜索", "blue"],
  ["play", "播放", "green"],
  ["topLists", "榜单", "purple"],
  ["details", "详情", "cyan"],
];

/** An admin call's answer: its data, or its message (the server's Chinese one) thrown as an Error. */
export async function unwrap<T>(call: Promise<Envelope<T>>, fallback: string = adminTableMessages.saveFailed): Promise<T> {
  let res: Envelope<T>;
  try {
    res = await call;
  } catch {
    throw new Error(fallback);
  }
  if (res.code !== 1) throw new Error(res.msg || fallback);
  return res.data;
}

export const errorText = (err: unknown, fallback: string = adminTableMessages.saveFailed) => (err instanceof Error && err.message ? err.message : fallback);
