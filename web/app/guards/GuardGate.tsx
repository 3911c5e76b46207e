import { useEffect, useState, type ReactNode } from "react";
import { useLocation, useMatches, useNavigate } from "react-router";
import { useSession } from "../session/store";
import { browserGuardDeps } from "./browser";
import { collectMiddleware, resolveGuards, runGuards } from "./registry";
import styles from "./guard-gate.module.css";

/** The neutral state shown while guards decide (and during SSR, which cannot see tokens). */
export function GuardPending() {
  return (
    <div className={styles.pending} role="status" aria-live="polite">
      <span className={styles.spinner} />
      <span className={styles.label}>加载中...</span>
    </div>
  );
}

/**
 * Guards that only send members away from a guest page (login, forgot password): the page
 * shows nothing private, so it is rendered (server side too) while they check. A member sees
 * it a moment before the redirect; a guest, almost everyone there, gets it in the first paint
 * instead of a spinner that the form then pushes down (Lighthouse: CLS, LCP).
 */
const SHOW_WHILE_CHECKING = new Set(["guest", "adminGuest"]);

/**
 * Runs the guards of the page's declared access (contracts/access.ts) and any the matched
 * routes add in `handle.middleware`. Tokens live in
 * localStorage, so this happens in the browser: the server (and the first client render)
 * show <GuardPending/>, then the page or a redirect follows. Once a set of guards passed,
 * moving between pages under the same guards keeps the content while they re-check.
 */
export function GuardGate({
  children,
  pending = <GuardPending />,
}: {
  children: ReactNode;
  pending?: ReactNode;
}) {
  const location = useLocation();
  const names = collectMiddleware(useMatches(), location.pathname);
  const key = names.join(",");
  const guardList = resolveGuards(names); // throws the 500 page for an unknown name
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const admin = useSession((s) => s.admin);
  const [passed, setPassed] = useState<string | null>(null);
  const to = location.pathname + location.search + location.hash;

  useEffect(() => {
    if (guardList.length === 0) {
      setPassed(null); // an unguarded page in between: check afresh next time
      return;
    }
    let cancelled = false;
    runGuards(guardList, { to, deps: browserGuardDeps() }).then((result) => {
      if (cancelled) return;
      if (result) void navigate(result.redirect, { replace: true });
      else setPassed(key);
    });
    return () => {
      cancelled = true;
    };
    // guardList follows key; user/admin re-run the guards after a login or logout.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, to, user, admin, navigate]);

  if (guardList.length === 0 || passed === key || names.every((n) => SHOW_WHILE_CHECKING.has(n))) return <>{children}</>;
  return <>{pending}</>;
}
