import type { DbLogger } from "../../db/open.js";
import type { ChartsService } from "./service.js";

export interface ChartScheduler {
  /** Rebuilds now (unless one is running), then every `intervalMs`. */
  start(): void;
  /** Stops the timer and waits for a rebuild in progress. */
  stop(): Promise<void>;
  /**
   * One rebuild as the timer runs it (errors are logged, never thrown), after the tick in
   * progress: that one may still be asking for the lease, and its rebuild would skip this one.
   */
  tick(): Promise<void>;
}

/**
 * The in-process background job. The timer is unref()'d (it never keeps the process alive);
 * a tick while a rebuild runs is skipped by the service. Every instance ticks, but only the
 * holder of the leader lease rebuilds (ADR 0040): when it dies, another's next tick takes over.
 * The rebuild's own advisory lock still keeps two rebuilds apart (a manual one, a lease moving).
 */
export function createChartScheduler({
  charts,
  intervalMs,
  logger,
  leader = async () => true,
  now = () => new Date(),
}: {
  charts: Pick<ChartsService, "rebuildCharts" | "idle">;
  intervalMs: number;
  logger: DbLogger;
  /** Whether this instance holds the leader lease (LeaderLease.check); default: always. */
  leader?: () => Promise<boolean>;
  now?: () => Date;
}): ChartScheduler {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let current: Promise<void> | undefined;

  const tick = async () => {
    if (stopped) return;
    try {
      if (!(await leader())) {
        logger.debug({}, "charts rebuild skipped: another instance leads");
        return;
      }
      const result = await charts.rebuildCharts(now());
      if (result.status === "rebuilt") logger.info({ rows: result.rows, ms: result.ms }, "charts rebuilt");
      else logger.debug({ reason: result.reason }, "charts rebuild skipped");
    } catch (err) {
      logger.error({ err }, "charts rebuild failed");
    }
  };
  const run = () => {
    current = tick();
    return current;
  };

  return {
    start() {
      if (timer || stopped) return;
      void run();
      if (intervalMs > 0) {
        timer = setInterval(() => void run(), intervalMs);
        timer.unref();
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await current;
      await charts.idle();
    },
    async tick() {
      await current;
      return run();
    },
  };
}
