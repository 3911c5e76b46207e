import { apiGet, type FetchLike } from "../lib/api";
import type { AdminInfo, SessionUser } from "./store";

/** Resolves to the account when the server says the token is good, null when it says no. */
export type AccountCheck<T> = (token: string) => Promise<T | null>;

async function check<T>(path: string, token: string, fetchImpl?: FetchLike): Promise<T | null> {
  const envelope = await apiGet<T>(path, token, fetchImpl);
  return envelope?.code === 1 && envelope.data ? envelope.data : null;
}

/** Concurrent checks of the same token (navbar and guard on first load) share one request. */
function deduped<T>(run: AccountCheck<T>): AccountCheck<T> {
  const inFlight = new Map<string, Promise<T | null>>();
  return (token) => {
    const existing = inFlight.get(token);
    if (existing) return existing;
    const promise = run(token).finally(() => inFlight.delete(token));
    inFlight.set(token, promise);
    return promise;
  };
}

export const fetchCurrentUser: AccountCheck<SessionUser> = deduped((token) =>
  check<SessionUser>("/api/user/isloging", token),
);

/** An admin route (ADR 0015); admin tokens come from the back office login (admin issue). */
export const fetchCurrentAdmin: AccountCheck<AdminInfo> = deduped((token) =>
  check<AdminInfo>("/api/pandaadmin/check", token),
);
