import type { AppDatabase, DbLogger } from "../../db/types.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import type { LiveSourceDirectory } from "./directory.js";
import { BUILTIN_SOURCES, type SourceSettings } from "./registry.js";
import { sourceSiteRepo } from "./site-repo.js";

/** Minutes between scheduled collections of a built-in site (as migration 0007 set them). */
const BUILTIN_COLLECT_INTERVAL_MINUTES = 360;

export interface SeedSwitchesOptions {
  writes: Pick<CatalogueWriteService, "transaction">;
  /** EXTERNAL_SOURCES: the built-in codes to switch on (config.externalSources). */
  codes: readonly string[];
  /** Default the three built-in sites. */
  builtins?: readonly Pick<SourceSettings, "code" | "name" | "homepage">[];
}

export interface SeedSwitchesResult {
  /** True when EXTERNAL_SOURCES differed from the value last applied (first start: always). */
  applied: boolean;
  /** Built-in sites switched on or off by this call, and rows created for built-ins that had none. */
  switchedOn: string[];
  switchedOff: string[];
  created: string[];
}

const sameCodes = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/**
 * EXTERNAL_SOURCES seeds the built-in sites' `source_sites.enabled` (ADR 0047): on a database's
 * first start, and again only when the variable's value changes (the value applied is kept in
 * `app_settings`). In between, the back office's 启用 switch is the truth: a restart with the same
 * value changes nothing. A built-in without a row gets one, switched as EXTERNAL_SOURCES says.
 * Writes go through the write service: every instance's directory hears the `sources` event.
 */
export async function seedBuiltinSwitches({ writes, codes, builtins = BUILTIN_SOURCES }: SeedSwitchesOptions): Promise<SeedSwitchesResult> {
  const wanted = builtins.map((b) => b.code).filter((code) => codes.includes(code));
  return writes.transaction(async (w, tx) => {
    const repo = sourceSiteRepo(tx as unknown as AppDatabase);
    const last = await repo.appliedSwitches();
    const applied = last === undefined || !sameCodes(last, wanted);
    const rows = new Map((await repo.list()).map((row) => [row.code, row]));
    const result: SeedSwitchesResult = { applied, switchedOn: [], switchedOff: [], created: [] };
    for (const builtin of builtins) {
      const on = wanted.includes(builtin.code);
      const row = rows.get(builtin.code);
      if (!row) {
        const sort = await repo.nextSort();
        await w.upsertSourceSite({ code: builtin.code, name: builtin.name, homepage: builtin.homepage, enabled: on, sort, collectIntervalMinutes: BUILTIN_COLLECT_INTERVAL_MINUTES });
        result.created.push(builtin.code);
      } else if (applied && row.enabled !== on) {
        await w.updateSourceSite(builtin.code, { enabled: on });
        (on ? result.switchedOn : result.switchedOff).push(builtin.code);
      }
    }
    if (applied) await repo.rememberAppliedSwitches(wanted);
    return result;
  });
}

/**
 * What main.ts runs once the app is built: seed the switches, let this instance's directory
 * read them before the server listens, and say in the log which sources are in use and why.
 */
export async function applyExternalSources(
  services: { writes: SeedSwitchesOptions["writes"]; sourceDirectory: Pick<LiveSourceDirectory, "refresh" | "list"> },
  codes: readonly string[],
  logger: Pick<DbLogger, "info">,
): Promise<SeedSwitchesResult> {
  const result = await seedBuiltinSwitches({ writes: services.writes, codes });
  await services.sourceDirectory.refresh();
  const inUse = services.sourceDirectory.list().map((entry) => entry.code);
  const how = result.applied
    ? "EXTERNAL_SOURCES applied to the built-in sources' switches"
    : "built-in sources as switched in the back office (EXTERNAL_SOURCES unchanged since it was applied)";
  logger.info({ externalSources: codes, switchedOn: result.switchedOn, switchedOff: result.switchedOff, created: result.created, inUse }, how);
  return result;
}
