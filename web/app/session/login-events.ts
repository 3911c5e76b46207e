import type { SessionUser } from "@contracts/accounts";

type LoginListener = (user: SessionUser) => void;

const listeners = new Set<LoginListener>();

/**
 * Runs `listener` after each login in this tab (the login page or dialog succeeded), once the
 * token is stored and the session store holds the user, so the listener may call the member
 * API at once (e.g. merge what a guest kept in the browser into the account). Not called when a
 * stored session is merely restored on page load: watch `useSession` for that.
 * Returns the function that removes the listener.
 */
export function onLogin(listener: LoginListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Called by the login forms after a successful login; one failing listener does not stop the rest. */
export function announceLogin(user: SessionUser): void {
  for (const listener of [...listeners]) {
    try {
      listener(user);
    } catch (err) {
      console.error("login listener failed", err);
    }
  }
}
