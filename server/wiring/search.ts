import type { AppDatabase, DbLogger } from "../db/open.js";
import type { DatabaseEngine } from "../db/types.js";
import type { ChartsService } from "../modules/charts/service.js";
import { createCollector } from "../modules/collect/service.js";
import { collectedService } from "../modules/collected/service.js";
import { dailyCounterBuffer } from "../modules/dashboard/counter-buffer.js";
import { dashboardService } from "../modules/dashboard/service.js";
import { searchAnswers, type SearchAnswersOptions } from "../modules/search/answers.js";
import { localProvider } from "../modules/search/local-provider.js";
import { startCosts } from "../modules/search/places.js";
import { searchService } from "../modules/search/service.js";
import { sourceAdminService } from "../modules/sources/admin-service.js";
import { canaryScheduler, canaryService } from "../modules/sources/canary/service.js";
import { CANARY_KEYWORDS, type OnDrift } from "../modules/sources/canary/checks.js";
import { withCanaries } from "../modules/sources/canary/view.js";
import type { SourceNetwork } from "../modules/sources/generic-source.js";
import { sourcePlayService } from "../modules/sources/play-service.js";
import { replayService } from "../modules/sources/recorded/replay.js";
import type { CoreServices } from "./core.js";
import type { SourceServices } from "./sources.js";

/** The plugin call a canary's step made, so its kept answer replays the same search (ADR 0051). */
function driftCall(step: string) {
  if (step === "search-ascii") return { method: "search", args: [CANARY_KEYWORDS.ascii, 1, "music"] };
  if (step === "search-chinese") return { method: "search", args: [CANARY_KEYWORDS.chinese, 1, "music"] };
  return null;
}

export interface SearchInputs {
  db: AppDatabase;
  logger: Pick<DbLogger, "warn" | "error" | "info" | "debug">;
  core: Pick<CoreServices, "clock" | "leader" | "caches" | "writes" | "audit">;
  sources: SourceServices;
  charts: Pick<ChartsService, "sourceChartsChanged">;
  sourceNetwork?: SourceNetwork;
  collect: { intervalMs: number; leaseMs: number };
  canary: { intervalMs: number; onDrift?: OnDrift; stepTimeoutMs?: number };
  system: { engine: DatabaseEngine; dataDir: string; queriesOnThisThread?: boolean };
  searchAnswerLimits?: SearchAnswersOptions["limits"];
}

/**
 * What reads the sources: search (the catalogue and the sites at once) and its kept answers,
 * playing a site's item, collection, canaries and replays, the sources' back office, and the
 * dashboard that shows their health.
 */
export function searchServices({ db, logger, core, sources: s, charts, sourceNetwork, collect, canary, system, searchAnswerLimits }: SearchInputs) {
  const { clock, leader, caches, writes, audit } = core;
  const { sourceDirectory, sources, recorded, plugins } = s;
  const collector = createCollector({
    db,
    directory: sourceDirectory,
    health: sources.health,
    logger,
    ...collect,
    leader: () => leader.check(),
    audit,
    // A stored chart replaces the site's board on the charts panel: drop every kept copy (ADR 0025).
    onPage: (page) => {
      if (page.unitType === "chart" && page.items > 0 && page.error === null) charts.sourceChartsChanged(page.source);
    },
  });
  const canaries = canaryService(db, {
    directory: sourceDirectory,
    audit,
    logger,
    now: () => clock().getTime(),
    planFor: (source) => collector.planFor(source),
    // A drifted answer is kept for replay (ADR 0051), with the search it answered where there was one.
    onDrift: async (source, step, answer) => {
      await canary.onDrift?.(source, step, answer);
      await recorded.keep(source, { ...answer, reason: `巡检 ${step}：页面改版`, call: driftCall(step) });
    },
    stepTimeoutMs: canary.stepTimeoutMs,
  });
  const local = localProvider(db, { queriesOnThisThread: system.queriesOnThisThread ?? false });
  const search = searchService(() => [local, ...sources.providers()], {
    onProviderError: (source, err) => logger.warn({ err, source }, "search provider failed"),
    // The fastest place of a hit found on several sites first: by the sources' health now (ADR 0052).
    startCost: () => startCosts(sources.health.list()),
  });
  return {
    search,
    // Kept, serialized and compressed once per normalised query; dropped by change events (ADR 0034).
    searchAnswers: searchAnswers(search, {
      caches,
      now: () => clock().getTime(),
      onSourcesChange: (listener) => sourceDirectory.onChange(listener),
      limits: searchAnswerLimits,
    }),
    sourceHealth: sources.health,
    // Per-day counts written in batches (searches), and the dashboard reading them (ADR 0032).
    counters: dailyCounterBuffer(db, clock),
    dashboard: dashboardService(db, { ...system, clock, caches, sourceHealth: () => withCanaries(sources.health.list(), canaries) }),
    collected: collectedService(db, { writes, sourceDirectory, logger, audit }),
    sourcePlay: sourcePlayService(sourceDirectory, { now: () => clock().getTime(), health: sources.health, db, caches }),
    sourceAdmin: sourceAdminService(db, { writes, audit, directory: sourceDirectory, network: sourceNetwork }),
    collector,
    canaries,
    canaryScheduler: canaryScheduler({ canaries, intervalMs: canary.intervalMs, leader: () => leader.check(), logger }),
    replay: replayService(db, { recorded, runtime: plugins.runtime }),
  };
}
