import { ADMIN_TOKEN_KEY, TOKEN_KEY } from "../session/keys";
import type { AdminInfo, SessionUser } from "../session/store";
import type { GuardDeps } from "./types";

/**
 * The logged-in user: from the session, else by checking the stored token with the server.
 * A token the server rejects (or cannot confirm) is not a login.
 */
export async function loadUser(deps: GuardDeps): Promise<SessionUser | null> {
  const known = deps.session.getUser();
  if (known) return known;
  const token = deps.tokens.getItem(TOKEN_KEY);
  if (!token) return null;
  const user = await deps.api.currentUser(token).catch(() => null);
  if (user) deps.session.setUser(user);
  return user;
}

/** Like loadUser for the admin; a rejected admin token is dropped, a network error keeps it. */
export async function loadAdmin(deps: GuardDeps): Promise<AdminInfo | null> {
  const known = deps.session.getAdmin();
  if (known) return known;
  const token = deps.tokens.getItem(ADMIN_TOKEN_KEY);
  if (!token) return null;
  try {
    const admin = await deps.api.currentAdmin(token);
    if (admin) deps.session.setAdmin(admin);
    else deps.tokens.removeItem(ADMIN_TOKEN_KEY);
    return admin;
  } catch {
    return null;
  }
}

/**
 * Navbar session check on mount (spec section 4): a non-success answer clears the user info.
 * Without a token there is nobody to check; a network error changes nothing.
 */
export async function checkSession(deps: GuardDeps): Promise<void> {
  const token = deps.tokens.getItem(TOKEN_KEY);
  if (!token) {
    deps.session.setUser(null);
    return;
  }
  try {
    deps.session.setUser(await deps.api.currentUser(token));
  } catch {
    // Offline: keep what we know.
  }
}
