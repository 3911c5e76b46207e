import { useEffect } from "react";
import { onDemand } from "../../lib/on-demand";
import { useSession } from "../../session/store";

/** Members only: a visitor's pages never fetch the sync's code (ADR 0077). */
const accountSync = onDemand(() => import("./account-sync"));

/** Runs the account sync (account-sync.ts) while a member is signed in (the global player mounts it). */
export function useAccountSync() {
  const userId = useSession((s) => s.user?.id ?? null);
  useEffect(() => {
    if (userId === null) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    accountSync.load().then(
      (sync) => {
        if (!cancelled) stop = sync.startAccountSync();
      },
      () => undefined, // no sync this time; the next sign-in tries again
    );
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId]);
}
