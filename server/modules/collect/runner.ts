import { hostname } from "node:os";
import { randomToken } from "../../lib/random-token.js";
import type { DbLogger } from "../../db/open.js";
import type { CollectUnit } from "../../db/schema/index.js";
import type { SourceDirectory } from "../sources/directory.js";
import { SourceError, type SourceAdapter } from "../sources/types.js";
import { describeUnit } from "./plans.js";
import { LostLease, type CollectJob, type CollectRepo, type PageOutcome } from "./repo.js";

/** A page just stored (the log; the kill test's child prints one line each). */
export interface StoredPageEvent {
  jobId: number;
  source: string;
  unitIndex: number;
  /** A chart page stored with items replaces the site's chart (the charts panel's site board). */
  unitType: CollectUnit["type"];
  page: number;
  items: number;
  newItems: number;
  error: string | null;
  state: CollectJob["state"];
}

export interface CollectRunnerOptions {
  repo: CollectRepo;
  directory: SourceDirectory;
  /** The sources' circuit breakers (services.sourceHealth): a job on an open one stops. */
  health?: { list(): readonly { code: string; state: string }[] };
  logger: Pick<DbLogger, "info" | "warn" | "error" | "debug">;
  /** How long a job stays ours without a stored page (renewed at every page). */
  leaseMs: number;
  /** How often an idle runner looks for a job. */
  pollMs: number;
  /** Units failing in a row that end the job as failed (the site is down: don't hammer it). */
  failAfterUnits?: number;
  /** Default: host, pid and a random part (unique per process). */
  runnerId?: string;
  onPage?: (event: StoredPageEvent) => void;
}

export interface CollectRunner {
  readonly id: string;
  /** Starts the loop: claim a job, walk it page by page, look again. */
  start(): void;
  /** Ends the loop: the page in flight is stored, then the job's lease is given back. */
  stop(): Promise<void>;
  /** Look for a job now (a manual start). */
  wake(): void;
  /** Claims one job and walks it to its end (or until stopped); undefined when none was free. */
  runOnce(): Promise<CollectJob | undefined>;
}

export const DEFAULT_FAIL_AFTER_UNITS = 3;

/** A page through the adapter; a site's failure becomes the page's error, never the job's crash. */
async function readPage(adapter: SourceAdapter, unit: CollectUnit, page: number): Promise<PageOutcome> {
  try {
    const answer = unit.type === "chart" ? await adapter.listChart({ period: unit.period, kind: unit.kind }) : await adapter.listCategory(unit.key, page);
    return { items: answer.items, hasMore: answer.hasMore };
  } catch (err) {
    const message = err instanceof SourceError ? `${err.kind}: ${err.message}` : `unknown: ${err instanceof Error ? err.message : String(err)}`;
    return { items: [], hasMore: false, error: message.slice(0, 500) };
  }
}

export function createCollectRunner(options: CollectRunnerOptions): CollectRunner {
  const { repo, directory, logger, leaseMs, pollMs } = options;
  const failAfter = options.failAfterUnits ?? DEFAULT_FAIL_AFTER_UNITS;
  const id = options.runnerId ?? `${hostname()}:${process.pid}:${randomToken(6)}`;
  let stopping = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  /** A wake-up that came while a job was being walked: look again at once instead of sleeping. */
  let wokenMeanwhile = false;

  const breakerOpen = (source: string) => options.health?.list().some((s) => s.code === source && s.state === "open") ?? false;

  async function walk(job: CollectJob): Promise<void> {
    const log = { job: job.id, source: job.source, runner: id, attempt: job.attempts };
    logger.info({ ...log, unit: job.unitIndex, page: job.nextPage }, job.attempts > 1 ? "collect job resumed" : "collect job started");
    let cursor = { unitIndex: job.unitIndex, nextPage: job.nextPage };
    let failedInARow = 0;
    for (;;) {
      if (stopping) {
        await repo.release(job.id, id);
        logger.info({ ...log, unit: cursor.unitIndex, page: cursor.nextPage }, "collect job released (runner stopping)");
        return;
      }
      const unit = job.plan[cursor.unitIndex];
      // Asked at each page: a source switched off or repaired while the job runs is seen at once.
      const entry = directory.get(job.source);
      if (!unit || !entry || breakerOpen(job.source)) {
        const reason = !unit ? "采集计划已走完" : !entry ? `来源 ${job.source} 已停用或不存在` : `来源 ${job.source} 熔断中 (连续失败)，稍后再采集`;
        await repo.fail(job.id, id, reason);
        logger.warn({ ...log, reason }, "collect job failed");
        return;
      }
      const outcome = await readPage(entry.adapter, unit, cursor.nextPage);
      if (outcome.error) logger.warn({ ...log, unit: describeUnit(unit), page: cursor.nextPage, error: outcome.error }, "collect page failed");
      let stored;
      try {
        stored = await repo.storePage({ job, runnerId: id, leaseMs, unitIndex: cursor.unitIndex, page: cursor.nextPage, outcome });
      } catch (err) {
        if (!(err instanceof LostLease)) throw err;
        // Another runner took the job (our lease ran out) or an admin cancelled it: nothing was stored.
        logger.warn({ ...log, unit: cursor.unitIndex, page: cursor.nextPage }, "collect job lost (lease ran out or cancelled)");
        return;
      }
      options.onPage?.({ jobId: job.id, source: job.source, unitIndex: cursor.unitIndex, unitType: unit.type, page: cursor.nextPage, items: stored.items, newItems: stored.newItems, error: outcome.error ?? null, state: stored.state });
      if (stored.state === "done") {
        logger.info(log, "collect job done");
        return;
      }
      failedInARow = outcome.error ? failedInARow + 1 : 0;
      if (failedInARow >= failAfter) {
        const reason = `连续 ${failedInARow} 个列表读取失败，停止采集：${outcome.error}`;
        await repo.fail(job.id, id, reason);
        logger.warn({ ...log, reason }, "collect job failed");
        return;
      }
      cursor = { unitIndex: stored.unitIndex, nextPage: stored.nextPage };
    }
  }

  async function runOnce(): Promise<CollectJob | undefined> {
    if (stopping) return undefined;
    // Only jobs of sources this instance has: another instance may be configured with more.
    const job = await repo.claim(
      id,
      leaseMs,
      directory.list().map((entry) => entry.code),
    );
    if (!job) return undefined;
    await walk(job);
    return (await repo.getJob(job.id)) ?? job;
  }

  async function run(): Promise<void> {
    while (!stopping) {
      let worked = false;
      try {
        worked = (await runOnce()) !== undefined;
      } catch (err) {
        // The database went away mid-page: the lease runs out and any runner resumes the job.
        logger.error({ err, runner: id }, "collect runner failed");
      }
      if (worked || stopping) continue;
      if (wokenMeanwhile) {
        wokenMeanwhile = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        timer.unref();
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  }

  return {
    id,
    start() {
      if (loop || stopping) return;
      loop = run();
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await loop;
    },
    wake() {
      if (wakeUp) wakeUp();
      else wokenMeanwhile = true;
    },
    runOnce,
  };
}
