import type { CollectUnit } from "../../../db/schema/collect.js";
import type { AppDatabase, DbLogger } from "../../../db/types.js";
import { SITE_ACTOR, type AuditActor, type AuditService } from "../../audit/service.js";
import type { SourceDirectory } from "../directory.js";
import { runCanary, type OnDrift } from "./checks.js";
import { canaryRepo, type CanaryRow } from "./repo.js";

export interface CanaryServiceOptions {
  directory: SourceDirectory;
  audit: AuditService;
  logger: Pick<DbLogger, "warn" | "info" | "error" | "debug">;
  now?: () => number;
  /** What the source's collection would walk (its first list is checked). */
  planFor?: (source: string) => Promise<CollectUnit[] | undefined>;
  /** A drifted answer, for whoever keeps them (the recorded-answers store of issue 22, point 3). */
  onDrift?: OnDrift;
  stepTimeoutMs?: number;
}

export class UnknownSourceError extends Error {}

/**
 * The canaries of the sources in use (ADR 0049): runs them, keeps the last result of each (so
 * "since when" survives a restart), and writes a change of state to the audit trail and the log.
 */
export function canaryService(db: AppDatabase, options: CanaryServiceOptions) {
  const { directory, audit, logger, now = Date.now } = options;
  const repo = canaryRepo(db);
  // One run per source at a time: a click during the scheduled run gets that run's answer.
  const running = new Map<string, Promise<CanaryRow>>();

  async function check(code: string, actor: AuditActor | typeof SITE_ACTOR): Promise<CanaryRow> {
    const entry = directory.get(code);
    if (!entry) throw new UnknownSourceError(code);
    let plan: CollectUnit[] | undefined;
    try {
      plan = await options.planFor?.(code);
    } catch (err) {
      logger.debug({ err, source: code }, "canary: no plan, lists not checked");
    }
    const run = await runCanary(entry, { plan, now, onDrift: options.onDrift, stepTimeoutMs: options.stepTimeoutMs });
    const at = new Date(now());
    const before = await repo.get(code);
    const changed = before?.state !== run.state;
    const row: CanaryRow = {
      source: code,
      state: run.state,
      at,
      since: changed ? at : before.since,
      lastOkAt: run.state === "ok" ? at : (before?.lastOkAt ?? null),
      failingStep: run.failingStep,
      checks: run.checks,
    };
    // The first result of a source is a change too (from unknown): an operator sees when watching began.
    if (!changed) {
      await repo.save(row);
      return row;
    }
    await db.transaction(async (tx) => {
      await repo.save(row, tx as unknown as AppDatabase);
      await audit.record(
        actor,
        {
          action: "source.canary",
          targetType: "source",
          targetId: code,
          before: before ? { state: before.state, since: before.since.toISOString() } : null,
          after: { state: row.state, failingStep: row.failingStep },
        },
        tx as unknown as AppDatabase,
      );
    });
    const failed = run.checks.find((c) => !c.ok);
    logger.warn({ source: code, from: before?.state ?? null, to: run.state, step: run.failingStep, detail: failed?.detail }, "source canary state changed");
    return row;
  }

  function run(code: string, actor: AuditActor | typeof SITE_ACTOR = SITE_ACTOR): Promise<CanaryRow> {
    const inFlight = running.get(code);
    if (inFlight) return inFlight;
    const started = check(code, actor).finally(() => running.delete(code));
    running.set(code, started);
    return started;
  }

  return {
    /** One source's canary now (the back office's 立即检测, or the schedule's). */
    run,
    /** Every source in use, one after another (they share nothing, but the machine is small). */
    async runAll(): Promise<void> {
      for (const entry of directory.list()) {
        try {
          await run(entry.code);
        } catch (err) {
          logger.error({ err, source: entry.code }, "source canary failed to run");
        }
      }
    },
    /** The last results, by source (the sources in use and any kept from before). */
    async latest(): Promise<Map<string, CanaryRow>> {
      return new Map((await repo.list()).map((r) => [r.source, r]));
    },
    /** The last results of the sources in use now (a removed or switched-off source's row is kept, not shown). */
    async inUse(): Promise<Map<string, CanaryRow>> {
      const codes = new Set(directory.list().map((e) => e.code));
      return new Map((await repo.list()).filter((r) => codes.has(r.source)).map((r) => [r.source, r]));
    },
  };
}

export type CanaryService = ReturnType<typeof canaryService>;

export interface CanaryScheduler {
  start(): void;
  stop(): Promise<void>;
  /** One scheduled round as the timer runs it (after the one in progress). */
  tick(): Promise<void>;
}

/**
 * Every `intervalMs` (0: never), on the leader lease's holder only (ADR 0040): every instance
 * ticks, only the holder runs. The first round waits one interval (a start is busy enough).
 */
export function canaryScheduler({
  canaries,
  intervalMs,
  leader,
  logger,
}: {
  canaries: Pick<CanaryService, "runAll">;
  intervalMs: number;
  leader: () => Promise<boolean>;
  logger: Pick<DbLogger, "debug" | "error">;
}): CanaryScheduler {
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let stopped = false;
  const round = async () => {
    if (stopped) return;
    try {
      if (!(await leader())) {
        logger.debug({}, "source canaries skipped: another instance leads");
        return;
      }
      await canaries.runAll();
    } catch (err) {
      logger.error({ err }, "source canaries failed");
    }
  };
  const run = () => {
    // A round still running (slow sites) is not doubled.
    current ??= round().finally(() => (current = undefined));
    return current;
  };
  return {
    start() {
      if (timer || stopped || intervalMs <= 0) return;
      timer = setInterval(() => void run(), intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await current;
    },
    async tick() {
      await current;
      return run();
    },
  };
}
