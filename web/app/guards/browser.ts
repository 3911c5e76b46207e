import { fetchCurrentAdmin, fetchCurrentUser } from "../session/api";
import { useSession } from "../session/store";
import type { GuardDeps } from "./types";

/** The real dependencies, in the browser only (guards never run during SSR). */
export function browserGuardDeps(): GuardDeps {
  const store = useSession.getState;
  return {
    tokens: window.localStorage,
    pending: window.sessionStorage,
    api: { currentUser: fetchCurrentUser, currentAdmin: fetchCurrentAdmin },
    session: {
      getUser: () => store().user,
      setUser: (user) => store().setUser(user),
      getAdmin: () => store().admin,
      setAdmin: (admin) => store().setAdmin(admin),
    },
  };
}
