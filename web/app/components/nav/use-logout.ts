import { authMessages } from "@contracts/auth-texts";
import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { endingSession, memberCallsAnswered, userCall } from "../../lib/user-api";
import { TOKEN_KEY } from "../../session/keys";
import { useSession } from "../../session/store";
import { useSiteMessage } from "../feedback";

const isUserPage = (pathname: string) => pathname.startsWith("/user/");

/**
 * Logout from the navbar: `POST /api/user/logout` ends the session on the server, then
 * 退出成功; if the server cannot be reached the member stays logged in and reads 退出失败，请重试.
 * Spec: logging out on a /user/ page goes to /. The dead token leaves localStorage at once (no
 * call may carry it: its 401 would count as a lost session); the session's member is cleared
 * only once the new page is on screen, as clearing it earlier would let the /user/ page's auth
 * guard see a guest and send them to /login instead.
 */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const message = useSiteMessage();
  const [pending, setPending] = useState<string | null>(null);

  useEffect(() => {
    if (pending === null || isUserPage(pathname)) return;
    setPending(null);
    window.localStorage.removeItem(TOKEN_KEY);
    useSession.getState().setUser(null);
    void message.success(pending);
  }, [pending, pathname, message]);

  return async () => {
    // No member call goes out from now on, and the ones in flight (the wallet the menu asked for
    // on opening) are answered before the server ends the session. One still out after the wait
    // comes back 401: that is this logout, not a lost session sending to /login.
    const release = endingSession();
    await memberCallsAnswered();
    let answer;
    try {
      answer = await userCall<null>("POST", "/api/user/logout", undefined, { anonymous: true });
    } catch {
      release();
      void message.error(authMessages.logoutFailed);
      return;
    }
    if (answer.code !== 1) {
      release();
      void message.error(answer.msg || authMessages.logoutFailed);
      return;
    }
    window.localStorage.removeItem(TOKEN_KEY);
    setPending(answer.msg || "退出成功");
    if (isUserPage(pathname)) void navigate("/");
  };
}
