import type { AppDatabase, DbLogger } from "../db/open.js";
import type { RedisLink } from "../lib/redis.js";
import { late } from "../lib/late.js";
import { pluginServices, type PluginServices, type PluginSettings } from "../modules/plugins/wiring.js";
import { liveSourceDirectory } from "../modules/sources/directory.js";
import { BROWSER_USER_AGENT } from "../modules/sources/fetch/user-agent.js";
import type { SourceNetwork } from "../modules/sources/generic-source.js";
import type { HealthOptions } from "../modules/sources/health.js";
import { type RecordedLimits, recordedService } from "../modules/sources/recorded/service.js";
import { externalSearch } from "../modules/sources/search-sources.js";
import { sharedBreakers } from "../modules/sources/shared-breakers.js";
import type { SourceAdapterEntry } from "../modules/sources/source-provider.js";
import type { CoreServices } from "./core.js";

export interface SourceInputs {
  db: AppDatabase;
  logger: Pick<DbLogger, "warn" | "error" | "info" | "debug">;
  redis?: RedisLink;
  core: Pick<CoreServices, "bus" | "clock" | "writes" | "audit">;
  /** What to do after a resync of the relayed bus (core's; the kept answers are gone by then). */
  onResync: CoreServices["onResync"];
  sourceAdapters: SourceAdapterEntry[];
  sourceBreaker?: Pick<HealthOptions, "failureThreshold" | "coolDownMs">;
  sourceNetwork?: SourceNetwork;
  pluginSettings?: PluginSettings;
  recordedLimits: RecordedLimits;
}

/**
 * The external sites in use and what watches them: the directory (the given built-ins, those
 * configured in source_sites and the enabled plugins, rebuilt on every `sources` event, ADR 0026),
 * their health and breakers, the plugins' sandbox and back office (issue 21), and the answers
 * kept for replays (issue 22).
 */
export function sourceServices({ db, logger, redis, core, onResync, sourceAdapters, sourceBreaker, sourceNetwork, pluginSettings, recordedLimits }: SourceInputs) {
  const { bus, clock, writes, audit } = core;
  // Answers of the source sites kept for replays (issue 22): canaries and tries keep them.
  const recorded = recordedService(db, recordedLimits);
  // The wiring's one cycle (ADR 0058): the directory lists the plugins' entries, and the plugins
  // report to the sources' health and wait for the directory. The directory is built first and
  // reads the plugins through this, set below (it first asks at `refresh`, after the wiring).
  const pluginsOf = late<PluginServices>("plugins");
  // Search and play ask it at each use.
  const sourceDirectory = liveSourceDirectory({
    db,
    bus,
    builtins: sourceAdapters,
    // A browser's, as for the built-ins (ADR 0046); a config's `headers` may set its own.
    userAgent: BROWSER_USER_AGENT,
    logger,
    network: sourceNetwork,
    plugins: (rows) => pluginsOf.get().entries(rows),
  });
  // After a resync the kept answers are gone (core); the sources are re-read too.
  onResync(() => void sourceDirectory.refresh().catch((err: unknown) => logger.warn({ err }, "sources not re-read")));
  // A dead site's open breaker is known to every instance (ADR 0039).
  const breakers = redis ? sharedBreakers(redis) : undefined;
  const sources = externalSearch({ directory: sourceDirectory, clock, logger, breaker: sourceBreaker, onBreaker: breakers?.publish });
  breakers?.attach(sources.health);
  // Source plugins (issue 21): loaded in the sandbox when enabled, listed by the directory.
  const plugins = pluginsOf.set(
    pluginServices({
      db,
      writes,
      audit,
      logger,
      recorded,
      health: () => sources.health,
      directory: () => sourceDirectory,
      ...(pluginSettings ? { settings: pluginSettings } : {}),
    }),
  );
  return { recorded, sourceDirectory, breakers, sources, plugins };
}

export type SourceServices = ReturnType<typeof sourceServices>;
