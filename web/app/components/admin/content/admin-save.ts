import { adminTableMessages } from "@contracts/admin-table-texts";
import type { MessageInstance } from "antd/es/message/interface";
import { adminCall, type AdminCallBody } from "../../../lib/admin-api";

/**
 * One back-office change: the call, then its message — the server's Chinese text on success
 * and on a refusal (a 400's reason), 保存失败，请稍后重试 when the call never answered.
 * Answers the data on success, undefined otherwise.
 */
export async function adminSave<T>(
  message: MessageInstance,
  method: "POST" | "PUT" | "DELETE",
  path: string,
  body?: AdminCallBody,
  fallback: string = adminTableMessages.saveFailed,
): Promise<{ data: T } | undefined> {
  try {
    const answer = await adminCall<T>(method, path, body);
    if (answer.code === 1) {
      void message.success(answer.msg);
      return { data: answer.data };
    }
    void message.error(answer.msg || fallback);
  } catch {
    void message.error(fallback);
  }
  return undefined;
}
