import type { AppDatabase, DbLogger } from "../../db/open.js";
import type { CollectTrigger, CollectUnit } from "../../db/schema/index.js";
import { AppError, badRequest, notFound } from "../../errors.js";
import type { AuditActor, AuditEntry, AuditService } from "../audit/service.js";
import { genericSourceConfig, type GenericSourceConfig } from "../sources/adapters/generic-config.js";
import type { SourceDirectory } from "../sources/directory.js";
import { planFor as builtinPlanFor } from "./plans.js";
import { collectRepo, type CollectJob } from "./repo.js";
import { createCollectRunner, type CollectRunner, type CollectRunnerOptions } from "./runner.js";

export interface CollectorOptions {
  db: AppDatabase;
  directory: SourceDirectory;
  health?: CollectRunnerOptions["health"];
  logger: Pick<DbLogger, "info" | "warn" | "error" | "debug">;
  /** Scheduler tick and idle runner poll (COLLECT_INTERVAL_MS); 0 = this instance never runs jobs. */
  intervalMs: number;
  /** COLLECT_LEASE_MS: how long a job stays held without a stored page. */
  leaseMs: number;
  /** What a job walks (default plans.ts); tests give smaller plans. */
  planFor?: (source: string, genericConfig: GenericSourceConfig | null) => CollectUnit[] | undefined;
  failAfterUnits?: number;
  runnerId?: string;
  onPage?: CollectRunnerOptions["onPage"];
  /**
   * Whether this instance holds the leader lease (ADR 0040): only the holder queues scheduled
   * jobs; every instance's runner takes queued jobs. Default: always.
   */
  leader?: () => Promise<boolean>;
  /** An admin's start or cancel writes its audit row in the job's own transaction. */
  audit?: AuditService;
}

export const COLLECT_JOBS_LIST_LIMIT = 50;

/**
 * Collection (issue 11; ADR 0023): queueing jobs (a per-source schedule and a manual start),
 * this instance's runner, and what the admin API reads. Jobs live in the database, so any
 * instance's runner may take any job, and a job resumes where it stopped.
 */
export function createCollector(options: CollectorOptions) {
  const { db, directory, logger } = options;
  const repo = collectRepo(db);
  const planOf = options.planFor ?? ((source, genericConfig) => builtinPlanFor(source, { genericConfig }));
  const runner: CollectRunner = createCollectRunner({
    repo,
    directory,
    health: options.health,
    logger,
    leaseMs: options.leaseMs,
    pollMs: options.intervalMs > 0 ? options.intervalMs : 60_000,
    failAfterUnits: options.failAfterUnits,
    runnerId: options.runnerId,
    onPage: options.onPage,
  });
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;

  /** Each source's schedule and plan, as stored now (a generic source's plan comes from its config). */
  async function settingsByCode() {
    const rows = await repo.sourceSettings();
    return new Map(
      rows.map((row) => {
        let generic: GenericSourceConfig | null = null;
        if (row.adapterConfig) {
          const parsed = genericSourceConfig.safeParse(row.adapterConfig);
          if (parsed.success) generic = parsed.data;
          else logger.warn({ source: row.code }, "collect: the source's adapter config is not valid; no plan");
        }
        return [row.code, { ...row, plan: row.adapterConfig && !generic ? undefined : planOf(row.code, generic) }];
      }),
    );
  }

  async function planFor(source: string, settings?: Awaited<ReturnType<typeof settingsByCode>>): Promise<CollectUnit[] | undefined> {
    // A source that says what it has (a plugin's top lists) plans itself, even in a built-in's place.
    const own = directory.get(source)?.adapter.collectPlan;
    if (own) {
      try {
        return await own();
      } catch (err) {
        logger.warn({ err, source }, "collect: the source could not list what it has; no plan");
        return undefined;
      }
    }
    const known = (settings ?? (await settingsByCode())).get(source);
    return known ? known.plan : planOf(source, null);
  }

  /** Queues a scheduled job for every enabled source whose interval has passed since its last job. */
  async function tick(): Promise<CollectJob[]> {
    const settings = await settingsByCode();
    const queued: CollectJob[] = [];
    for (const entry of directory.list()) {
      const site = settings.get(entry.code);
      if (!site || !site.enabled || site.collectIntervalMinutes <= 0) continue;
      const plan = await planFor(entry.code, settings);
      if (!plan?.length) continue;
      const job = await repo.queueIfDue(entry.code, site.collectIntervalMinutes, plan);
      if (job) {
        queued.push(job);
        logger.info({ job: job.id, source: job.source, units: job.plan.length }, "collect job queued (schedule)");
      }
    }
    if (queued.length > 0) runner.wake();
    return queued;
  }

  async function queue(source: string, trigger: CollectTrigger, requestedBy: number | null, plan: CollectUnit[], by?: { actor: AuditActor; requested: string }) {
    const input = { source, trigger, plan, requestedBy };
    const result =
      by && options.audit
        ? await db.transaction(async (tx) => {
            const queued = await collectRepo(tx as unknown as AppDatabase).queue(input);
            // A job already queued or running is answered again: only a new one is a change.
            if (queued.created) {
              const { job } = queued;
              const entry: AuditEntry = { action: "collect.start", targetType: "collect_job", targetId: job.id, after: { source: job.source, state: job.state, planSize: job.plan.length }, detail: { requested: by.requested } };
              await options.audit!.record(by.actor, entry, tx as unknown as AppDatabase);
            }
            return queued;
          })
        : await repo.queue(input);
    if (result.created) logger.info({ job: result.job.id, source, trigger, units: plan.length }, "collect job queued");
    return result;
  }

  return {
    repo,
    runner,
    tick,
    /** What a job of `source` would walk (the canary checks its first list). */
    planFor: (source: string) => planFor(source),

    /**
     * A manual start: one source, or every enabled one. A source with a job queued or running
     * answers that job (starting twice is no error).
     */
    async startNow(input: { source?: string; requestedBy?: number | null; actor?: AuditActor }): Promise<{ job: CollectJob; created: boolean }[]> {
      const settings = await settingsByCode();
      const by = input.actor ? { actor: input.actor, requested: input.source ?? "all" } : undefined;
      if (input.source !== undefined) {
        if (!directory.get(input.source)) throw badRequest(`未知或未启用的来源：${input.source}`);
        const plan = await planFor(input.source, settings);
        if (!plan?.length) throw badRequest(`来源 ${input.source} 没有可采集的榜单或分类`);
        const result = await queue(input.source, "manual", input.requestedBy ?? null, plan, by);
        runner.wake();
        return [result];
      }
      const entries = directory.list();
      if (entries.length === 0) throw badRequest("没有启用的外部来源");
      const results = [];
      for (const entry of entries) {
        const plan = await planFor(entry.code, settings);
        if (plan?.length) results.push(await queue(entry.code, "manual", input.requestedBy ?? null, plan, by));
      }
      if (results.length === 0) throw badRequest("启用的来源都没有可采集的榜单或分类");
      runner.wake();
      return results;
    },

    async jobs(limit = COLLECT_JOBS_LIST_LIMIT): Promise<CollectJob[]> {
      return repo.recentJobs(limit);
    },

    async job(id: number) {
      const job = await repo.getJob(id);
      if (!job) throw notFound("采集任务不存在");
      return { job, pages: await repo.pages(id) };
    },

    async cancel(id: number, actor?: AuditActor): Promise<CollectJob> {
      const cancelled =
        actor && options.audit
          ? await db.transaction(async (tx) => {
              const job = await collectRepo(tx as unknown as AppDatabase).cancel(id);
              if (job) {
                const entry: AuditEntry = { action: "collect.cancel", targetType: "collect_job", targetId: job.id, after: { source: job.source, state: job.state, pagesDone: job.pagesDone } };
                await options.audit!.record(actor, entry, tx as unknown as AppDatabase);
              }
              return job;
            })
          : await repo.cancel(id);
      if (cancelled) {
        logger.info({ job: id }, "collect job cancelled");
        return cancelled;
      }
      const job = await repo.getJob(id);
      if (!job) throw notFound("采集任务不存在");
      throw new AppError(409, "采集任务已结束，不能取消");
    },

    /** Runs this instance's runner and the schedule (main.ts; never tests or buildApp alone). */
    startBackground(): void {
      if (options.intervalMs <= 0 || timer) return;
      const leader = options.leader ?? (async () => true);
      const runTick = () => {
        ticking = leader()
          .then((leads) => (leads ? tick() : undefined))
          .then(() => undefined)
          .catch((err: unknown) => logger.error({ err }, "collect schedule tick failed"));
      };
      runTick();
      timer = setInterval(runTick, options.intervalMs);
      timer.unref();
      runner.start();
    },

    /** Stops the schedule and the runner: the page in flight is stored, the job's lease given back. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await ticking;
      await runner.stop();
    },
  };
}

export type Collector = ReturnType<typeof createCollector>;
