import type { Clock } from "../../lib/clock.js";
import type { SearchProvider } from "../search/provider.js";
import type { LiveSourceDirectory, SourceDirectory } from "./directory.js";
import { healthBoard, type HealthBoard, type HealthOptions } from "./health.js";
import { sourceProvider } from "./source-provider.js";

export interface ExternalSearchOptions {
  /** Asked at each search: sources come, go and are repaired while the site runs. */
  directory: SourceDirectory & Partial<Pick<LiveSourceDirectory, "onChange">>;
  clock: Clock;
  logger: NonNullable<HealthOptions["logger"]>;
  /** Breaker settings (default 5 failures, 30 s cool-down). */
  breaker?: Pick<HealthOptions, "failureThreshold" | "coolDownMs">;
  /** Breakers opening and closing here, told to the other instances (shared-breakers.ts). */
  onBreaker?: HealthOptions["onBreaker"];
}

/**
 * The external sources as search providers, each behind its health and circuit breaker. The
 * providers are made from the directory at each search (a search in flight keeps the adapter it
 * started with). Repeated searches are kept by the search module (search/answers.ts).
 */
export function externalSearch({ directory, clock, logger, breaker, onBreaker }: ExternalSearchOptions): {
  providers: () => SearchProvider[];
  health: HealthBoard;
} {
  const now = () => clock().getTime();
  const health = healthBoard({ ...breaker, now, logger, onBreaker, sources: () => directory.list() });
  // A source whose adapter was replaced (its settings changed) starts with a clean record.
  directory.onChange?.((previous, next) => {
    const before = new Map(previous.map((e) => [e.code, e.adapter]));
    for (const entry of next) {
      const adapter = before.get(entry.code);
      if (adapter && adapter !== entry.adapter) health.reset(entry.code);
    }
  });
  return {
    providers: () => directory.list().map((entry) => sourceProvider(entry, health.track(entry.code, entry.name))),
    health,
  };
}
