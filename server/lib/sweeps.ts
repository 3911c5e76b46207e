import type { DbLogger } from "../db/types.js";

/**
 * Runs a sweep every `intervalMs` (0 = never), first a minute after start; timers never hold
 * the process. `what` names the sweep in the warning a failure logs; the next tick tries again.
 */
export function scheduleSweeps(what: string, run: () => Promise<unknown>, intervalMs: number, logger: Pick<DbLogger, "warn">): () => void {
  if (intervalMs <= 0) return () => {};
  const sweep = () => void run().catch((err) => logger.warn({ err }, `${what} failed`));
  const first = setTimeout(sweep, 60_000);
  const every = setInterval(sweep, intervalMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
