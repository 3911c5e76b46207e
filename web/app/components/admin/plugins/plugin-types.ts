import type { PluginAdminAnswer, PluginTryAnswer } from "@contracts/plugin-admin";
import { adminTableMessages } from "@contracts/admin-table-texts";
import type { Envelope } from "../../../lib/api";

/** A plugin as GET /api/pandaadmin/plugins answers it (types only: no zod reaches the browser). */
export type PluginRow = PluginAdminAnswer;
export type PluginTry = PluginTryAnswer;
export type PluginInstalled = { installed: PluginRow[]; failed: { name: string; error: string }[] };

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
