import { LOGIN_REDIRECT_KEY, TOKEN_KEY } from "../session/keys";
import { useSession } from "../session/store";
import { ApiUnavailableError, type Envelope, sendJson } from "./api";
import { callsInFlight, LOGOUT_WAITS_FOR_CALLS_MS } from "./calls-in-flight";

/**
 * Calls of the signed-in member (spec section 7): the token from localStorage as a bearer
 * token, JSON or multipart bodies, the envelope back.
 *
 * Spec section 8: any auth failure (the server's 401 请先登录 or 403 账号已被禁用) clears the
 * token and goes to /login, remembering where the member was so the login returns there.
 */
export type UserCallBody = Record<string, unknown> | FormData | undefined;

/** Where an auth failure sends the browser; the app shell sets a router-based one. */
let goToLogin: (from: string) => void = () => window.location.assign("/login");

export function setAuthFailureNavigator(navigate: (from: string) => void) {
  goToLogin = navigate;
}

export function storedToken(): string | null {
  return typeof window === "undefined" ? null : window.localStorage.getItem(TOKEN_KEY);
}

/** Forget the session in this browser and go to /login (coming back to `from` after login). */
export function handleAuthFailure(from = window.location.pathname + window.location.search) {
  window.localStorage.removeItem(TOKEN_KEY);
  useSession.getState().setUser(null);
  if (!from.startsWith("/login")) window.sessionStorage.setItem(LOGIN_REDIRECT_KEY, from);
  goToLogin(from);
}

export { ApiUnavailableError };

/** Tokens whose session this page ended or is ending (its logout): see `endingSession`. */
const endingTokens = new Set<string>();

/**
 * Marks the stored token's session as ended by this page (logout); the returned release undoes
 * it when the logout fails. A member call sent before and answered 401 after is then not a lost
 * session: the logout decides where the member goes.
 */
export function endingSession(): () => void {
  const token = storedToken();
  if (!token) return () => {};
  endingTokens.add(token);
  return () => void endingTokens.delete(token);
}

/** Member calls sent with a token and not yet answered. */
const memberCalls = callsInFlight();

/**
 * Resolves once the member calls sent so far are answered (at most LOGOUT_WAITS_FOR_CALLS_MS): the
 * logout ends the session after them, so none comes back 401 (the wallet the user menu asks for
 * on opening is usually still on its way when 退出登录 is clicked).
 */
export function memberCallsAnswered(): Promise<void> {
  return memberCalls.settled(LOGOUT_WAITS_FOR_CALLS_MS);
}

/**
 * A 401/403 for `token` says nothing about the session this browser holds when this page ended
 * that session itself, or a new login has replaced it meanwhile. (Another tab's logout leaves no
 * token: that is a lost session here, as before.)
 */
function givenUp(token: string): boolean {
  const now = storedToken();
  return endingTokens.has(token) || (now !== null && now !== token);
}

/**
 * One member call. Resolves to the server's envelope (code 1 or 0 with its msg); rejects with
 * ApiUnavailableError on a network failure or an answer that is not the envelope, so callers
 * show their spec fallback (…失败，请稍后重试). `anonymous` calls (login, register) never
 * treat 401 as a lost session.
 */
export async function userCall<T>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  body?: UserCallBody,
  opts: { anonymous?: boolean } = {},
): Promise<Envelope<T>> {
  const token = storedToken();
  // A member call without a token (a logout under way, another tab's logout) is not sent: the
  // server could only answer 401.
  if (!token && !opts.anonymous) throw new ApiUnavailableError("not signed in");
  // Nor one whose session this page is ending: it could only come back 401 after the logout.
  if (token && !opts.anonymous && endingTokens.has(token)) throw new ApiUnavailableError("logging out");
  const sending = sendJson(method, path, body, token);
  const { status, json } = await (token && !opts.anonymous ? memberCalls.track(sending) : sending);
  if (!opts.anonymous && token && (status === 401 || status === 403) && !givenUp(token)) {
    handleAuthFailure();
  }
  return json as Envelope<T>;
}
