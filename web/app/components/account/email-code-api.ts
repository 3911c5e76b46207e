import type { SiteMessage } from "../feedback";
import { type EmailCodeEvent, profileMessages, profilePaths } from "@contracts/account-profile-texts";
import { userCall } from "../../lib/user-api";

/**
 * Asks for an email code and says how it went. Resolves to the seconds the send button must
 * wait: 60 after a send, the server's remaining seconds when it was too soon, null otherwise.
 * resetpwd is a guest's call (a 401 there is no lost session).
 */
export async function requestEmailCode(message: SiteMessage, event: EmailCodeEvent, email?: string): Promise<number | null> {
  try {
    const res = await userCall<{ retryAfter?: number } | null>("POST", profilePaths.sendCode, { event, email }, { anonymous: event === "resetpwd" });
    if (res.code === 1) {
      void message.success(res.msg || profileMessages.codeSent);
      return res.data?.retryAfter ?? null;
    }
    void message.error(res.msg || profileMessages.codeSendFailed);
    return res.data?.retryAfter ?? null;
  } catch {
    void message.error(profileMessages.codeSendFailed);
    return null;
  }
}
