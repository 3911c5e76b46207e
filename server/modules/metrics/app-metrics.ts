import { Counter, Gauge, type Registry } from "prom-client";
import type { AppDatabase } from "../../db/open.js";
import type { PoolStats } from "../../db/pool-stats.js";
import type { DatabaseEngine } from "../../db/types.js";
import type { EventBus } from "../../events/bus.js";
import type { CacheStats } from "../../lib/cache.js";
import type { SourceHealthSnapshot } from "../sources/health.js";
import { CANARY_STATES } from "../sources/canary/classify.js";
import { metricsRepo } from "./repo.js";

export interface AppMetricsOptions {
  caches: { stats(): CacheStats[] };
  sourceHealth: { list(): SourceHealthSnapshot[] };
  bus: EventBus;
  db: AppDatabase;
  engine: DatabaseEngine;
  /** The pool's numbers (db/pool-stats.ts); undefined = not known for this driver. */
  pool?: () => PoolStats;
  /** The last canary states of the sources in use (ADR 0049), from the database: every instance shows the holder's runs. */
  canaries?: { inUse(): Promise<Map<string, { state: string }>> };
  /** Longest a scrape waits for the database (its numbers are left out past it). */
  databaseTimeoutMs?: number;
}

type Rows<L extends string> = [Partial<Record<L, string>>, number][];

/** A gauge whose values are read when scraped (labels of a reading that is gone disappear). */
function readGauge<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[], read: () => Rows<L> | Promise<Rows<L>>) {
  return new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const [labels, value] of rows) this.set(labels, value);
    },
  });
}

/** A counter kept elsewhere (a cache's hits), copied when scraped; it restarts with its owner. */
function readCounter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[], read: () => Rows<L>) {
  return new Counter<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

/**
 * One database reading shared by every metric of one scrape: the registry starts all their
 * collects in the same tick, so they share the reading in flight; the next scrape reads anew.
 */
function perScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    if (!inFlight) {
      const reading = read().finally(() => {
        if (inFlight === reading) inFlight = undefined;
      });
      inFlight = reading;
    }
    return inFlight;
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const BREAKER_STATES = ["closed", "open", "half-open"] as const;

/**
 * The app's own numbers (ADR 0044), read when scraped: caches, sources, the database pool, and
 * the background work (collect jobs and chart rebuilds, from the database: every instance's).
 */
export function registerAppMetrics(registry: Registry, options: AppMetricsOptions) {
  const { caches, sourceHealth, bus, engine } = options;
  const repo = metricsRepo(options.db);
  const timeoutMs = options.databaseTimeoutMs ?? 2000;

  // Caches (lib/cache.ts: every kept answer and page is one of the registry's).
  const cacheRows = (pick: (s: CacheStats) => number): Rows<"cache"> => caches.stats().map((s) => [{ cache: s.name }, pick(s)]);
  readGauge(registry, "djsearch_cache_entries", "Values kept in each cache", ["cache"], () => cacheRows((s) => s.entries));
  readGauge(registry, "djsearch_cache_bytes", "Bytes kept in each cache (keys and values)", ["cache"], () => cacheRows((s) => s.bytes));
  readGauge(registry, "djsearch_cache_max_bytes", "Each cache's cap in bytes", ["cache"], () => cacheRows((s) => s.maxBytes));
  readCounter(registry, "djsearch_cache_hits_total", "Reads answered from each cache", ["cache"], () => cacheRows((s) => s.hits));
  readCounter(registry, "djsearch_cache_misses_total", "Reads each cache had to load", ["cache"], () => cacheRows((s) => s.misses));
  readCounter(registry, "djsearch_cache_refreshes_total", "Background refreshes of stale values", ["cache"], () => cacheRows((s) => s.refreshes));
  readCounter(registry, "djsearch_cache_evictions_total", "Values pushed out by the caps", ["cache"], () => cacheRows((s) => s.evictions));
  readCounter(registry, "djsearch_cache_drops_total", "Values dropped by change events", ["cache"], () => cacheRows((s) => s.drops));

  // External sources (modules/sources/health.ts): this instance's calls and breakers.
  const sourceRows = (pick: (s: SourceHealthSnapshot) => number | null): Rows<"source"> =>
    sourceHealth.list().flatMap((s): Rows<"source"> => {
      const value = pick(s);
      return value === null ? [] : [[{ source: s.code }, value]];
    });
  readGauge(registry, "djsearch_source_breaker_state", "Each source's circuit breaker: 1 for its current state", ["source", "state"], () =>
    sourceHealth.list().flatMap((s) => BREAKER_STATES.map((state): [{ source: string; state: string }, number] => [{ source: s.code, state }, s.state === state ? 1 : 0])),
  );
  readGauge(registry, "djsearch_source_success_ratio", "Successes among each source's recent calls", ["source"], () => sourceRows((s) => s.successRate));
  readGauge(registry, "djsearch_source_latency_seconds", "Each source's recent call latency", ["source", "quantile"], () =>
    sourceHealth.list().flatMap((s) => {
      const rows: Rows<"source" | "quantile"> = [];
      if (s.p50Ms !== null) rows.push([{ source: s.code, quantile: "0.5" }, s.p50Ms / 1000]);
      if (s.p95Ms !== null) rows.push([{ source: s.code, quantile: "0.95" }, s.p95Ms / 1000]);
      return rows;
    }),
  );
  readCounter(registry, "djsearch_source_calls_total", "Calls made to each source", ["source"], () => sourceRows((s) => s.calls));
  readCounter(registry, "djsearch_source_failures_total", "Calls to each source that failed", ["source"], () => sourceRows((s) => s.failures));
  readCounter(registry, "djsearch_source_skipped_total", "Searches that skipped a source with an open breaker", ["source"], () => sourceRows((s) => s.skipped));

  // Canaries (ADR 0049): 1 for each source's current state, 0 for the others.
  const canaries = options.canaries;
  if (canaries) {
    readGauge(registry, "dj_source_canary_state", "Each source's last canary verdict: 1 for its current state", ["source", "state"], async () =>
      [...(await canaries.inUse()).entries()].flatMap(([source, row]) =>
        CANARY_STATES.map((state): [{ source: string; state: string }, number] => [{ source, state }, row.state === state ? 1 : 0]),
      ),
    );
  }

  // The database pool (PGlite: its one engine and the calls queued for it).
  if (options.pool) {
    const pool = options.pool;
    readGauge(registry, "djsearch_db_pool_connections", "Open database connections (PGlite: 1)", ["engine"], () => [[{ engine }, pool().size]]);
    readGauge(registry, "djsearch_db_pool_idle", "Open connections doing nothing", ["engine"], () => [[{ engine }, pool().idle]]);
    readGauge(registry, "djsearch_db_pool_waiting", "Database calls waiting for a connection", ["engine"], () => [[{ engine }, pool().waiting]]);
    readGauge(registry, "djsearch_db_pool_max", "The most connections the pool opens", ["engine"], () => [[{ engine }, pool().max]]);
  }

  // Background work, as the database holds it (all instances'); left out when it does not answer.
  const readWork = perScrape(async () => {
    try {
      const [states, open, chartsAt] = await withTimeout(Promise.all([repo.jobStates(), repo.openJobs(), repo.lastChartRebuild()]), timeoutMs);
      return { ok: true as const, states, open, chartsAt };
    } catch {
      return { ok: false as const };
    }
  });
  readGauge(registry, "djsearch_metrics_database_up", "1 when this scrape read the background work from the database", [], async () => [[{}, (await readWork()).ok ? 1 : 0]]);
  readGauge(registry, "djsearch_collect_jobs", "Collect jobs by state (every instance's)", ["state"], async () => {
    const work = await readWork();
    return work.ok ? work.states.map((r): [{ state: string }, number] => [{ state: r.state }, r.jobs]) : [];
  });
  const openRows = async (pick: (job: { units: number; unitIndex: number; pagesDone: number; itemsFound: number; errors: number }) => number) => {
    const work = await readWork();
    return work.ok ? work.open.map((job): [{ source: string; state: string }, number] => [{ source: job.source, state: job.state }, pick(job)]) : [];
  };
  readGauge(registry, "djsearch_collect_job_progress_ratio", "An open collect job's units walked / units planned", ["source", "state"], () =>
    openRows((job) => (job.units > 0 ? Math.min(1, job.unitIndex / job.units) : 0)),
  );
  readGauge(registry, "djsearch_collect_job_pages", "Pages an open collect job has stored", ["source", "state"], () => openRows((job) => job.pagesDone));
  readGauge(registry, "djsearch_collect_job_items", "Items an open collect job has found", ["source", "state"], () => openRows((job) => job.itemsFound));
  readGauge(registry, "djsearch_collect_job_errors", "Pages an open collect job could not read", ["source", "state"], () => openRows((job) => job.errors));
  readGauge(registry, "djsearch_charts_last_rebuild_timestamp_seconds", "When the charts were last rebuilt (any instance)", [], async () => {
    const work = await readWork();
    return work.ok && work.chartsAt !== null ? [[{}, work.chartsAt]] : [];
  });

  // Rebuilds seen on the bus (this instance's, and others' once the bus is shared).
  const rebuilds = new Counter({ name: "djsearch_charts_rebuilds_total", help: "Chart rebuilds announced on the change bus", registers: [registry] });
  rebuilds.inc(0);
  bus.subscribe((event) => {
    if (event.type === "charts") rebuilds.inc();
  });
}
