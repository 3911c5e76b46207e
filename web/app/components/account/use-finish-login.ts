import type { LoginResult } from "@contracts/auth-schemas";
import { useLocation, useNavigate } from "react-router";
import { announceLogin } from "../../session/login-events";
import { LOGIN_REDIRECT_KEY, TOKEN_KEY } from "../../session/keys";
import { useSession } from "../../session/store";
import { useSiteMessage } from "../feedback";

/** Pages only guests see (their `guest` guard would send a member to /user/profile). */
const GUEST_PAGES = ["/login", "/forgot-password"];

/** `wanted` if it is a page of ours a member may open (never another host, never a guest page). */
export function loginTarget(wanted: string | null): string | null {
  if (!wanted || !wanted.startsWith("/") || /^\/[/\\]/.test(wanted)) return null;
  return GUEST_PAGES.some((p) => wanted === p || wanted.startsWith(`${p}?`) || wanted.startsWith(`${p}/`)) ? null : wanted;
}

/** The address a guest was sent to /login from (the auth guard kept it), once. */
function takeLoginRedirect(): string | null {
  const wanted = window.sessionStorage.getItem(LOGIN_REDIRECT_KEY);
  window.sessionStorage.removeItem(LOGIN_REDIRECT_KEY);
  return loginTarget(wanted);
}

/**
 * After a successful login: keep the token, say 登录成功, close the dialog; on a guest page
 * (the login page) go where the guest wanted to go before being sent there, else home. The
 * session store learns the user only after leaving the guest page: its guard would otherwise
 * send the new member to /user/profile first. Then `onLogin` listeners run.
 */
export function useFinishLogin(onDone?: () => void) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const message = useSiteMessage();
  return async (result: LoginResult, msg: string) => {
    window.localStorage.setItem(TOKEN_KEY, result.token);
    const wanted = takeLoginRedirect();
    void message.success(msg || "登录成功");
    onDone?.();
    if (GUEST_PAGES.includes(pathname)) await navigate(wanted ?? "/", { replace: true });
    useSession.getState().setUser(result.user);
    announceLogin(result.user);
  };
}
