import type { AppDatabase, DbLogger } from "../../db/types.js";
import type { EventBus } from "../../events/bus.js";
import { parseGenericConfig } from "./adapters/generic-config.js";
import { buildGenericSource, type BuiltGenericSource, type SourceNetwork } from "./generic-source.js";
import { sourceSiteRepo, type SourceSiteRow } from "./site-repo.js";
import { SOURCE_SEARCH_TIMEOUT_MS, type SourceAdapterEntry } from "./source-provider.js";

/**
 * The external sources in use now: what search, play and the collector ask for. A source may
 * be added, repaired or switched off while the site runs (generic adapters configured by data),
 * so callers ask the directory at each use and never keep an entry.
 */
export interface SourceDirectory {
  /** The enabled sources, in display order. */
  list(): readonly SourceAdapterEntry[];
  get(code: string): SourceAdapterEntry | undefined;
}

/** Told after each rebuild: the entries before and after (an entry whose adapter changed was repaired). */
export type DirectoryListener = (previous: readonly SourceAdapterEntry[], next: readonly SourceAdapterEntry[]) => void;

export interface LiveSourceDirectory extends SourceDirectory {
  /** Reads `source_sites` and builds the list (start-up; then on every `sources` event). */
  refresh(): Promise<void>;
  /** Resolves once the rebuilds asked for so far are done (a write's caller waits for its change to apply). */
  settled(): Promise<void>;
  onChange(listener: DirectoryListener): () => void;
  /** A source's timeout when no admin set one (the built-in's, or a generic config's `timeoutMs`). */
  defaultTimeoutMs(code: string): number | undefined;
  /** The generic sources' sockets; the built-ins are closed by whoever made them. */
  close(): void;
}

/** A directory fixed at start-up (unit tests of search and play over a given list). */
export function staticSourceDirectory(entries: readonly SourceAdapterEntry[]): SourceDirectory {
  const byCode = new Map(entries.map((entry) => [entry.code, entry]));
  return { list: () => entries, get: (code) => byCode.get(code) };
}

export interface LiveDirectoryOptions {
  db: AppDatabase;
  bus: EventBus;
  /** The code adapters (main.ts: the three built-ins, switched by `source_sites.enabled`; tests: fixture entries). */
  builtins: readonly SourceAdapterEntry[];
  userAgent: string;
  logger: Pick<DbLogger, "warn" | "error">;
  /** Tests only: the fixture addresses DB-configured sources may reach. */
  network?: SourceNetwork;
  /**
   * The enabled plugins' entries by the source code each serves as (issue 21): a plugin takes
   * the place of a built-in or generic adapter of the same code, or adds a source of its own.
   */
  plugins?: (rows: readonly SourceSiteRow[]) => Promise<ReadonlyMap<string, SourceAdapterEntry>>;
}

/**
 * The live directory (issue 11, ADR 0026): the built-in code adapters chosen at start-up plus
 * every `source_sites` row with an `adapter_config` (a generic adapter built from it), minus the
 * sites switched off (`enabled` false), with the names, logos and homepages of `source_sites`.
 * Rebuilt when a `sources` change event arrives (from this instance's write service or relayed
 * from another): an unchanged config keeps its adapter and sockets; a replaced or removed one
 * is retired, its sockets closed once the searches and streams in flight on it have ended.
 */
export function liveSourceDirectory({ db, bus, builtins, userAgent, logger, network, plugins }: LiveDirectoryOptions): LiveSourceDirectory {
  const repo = sourceSiteRepo(db);
  const builtinCodes = new Set(builtins.map((b) => b.code));
  const generics = new Map<string, { stored: string; built: BuiltGenericSource }>();
  const listeners = new Set<DirectoryListener>();
  let entries: readonly SourceAdapterEntry[] = builtins;
  let byCode = new Map(entries.map((e) => [e.code, e]));
  let queue: Promise<void> = Promise.resolve();
  let pending: Promise<void> | null = null;

  /**
   * An entry as the row shows it. Its timeout is the row's `timeout_ms` when an admin set one,
   * else the adapter's own (the built-in default, or the generic config's): set on the entry (the
   * search's wait) and on its fetcher (each request), so a change applies without a restart.
   * The entries handed in (`builtins`, a generic's built entry) are never changed: they keep the default.
   */
  const shown = (entry: SourceAdapterEntry, row: SourceSiteRow | undefined): SourceAdapterEntry => {
    const timeoutMs = row?.timeoutMs ?? entry.timeoutMs ?? SOURCE_SEARCH_TIMEOUT_MS;
    entry.setTimeoutMs?.(timeoutMs);
    if (!row) return { ...entry, timeoutMs };
    return { ...entry, timeoutMs, name: row.name, homepage: row.homepage, ...(row.logo ? { logo: row.logo } : {}) };
  };

  /** The generic source of a row: the one built before when its config is unchanged. */
  function genericOf(row: SourceSiteRow & { adapterConfig: Record<string, unknown> }): SourceAdapterEntry | undefined {
    const stored = JSON.stringify(row.adapterConfig);
    const kept = generics.get(row.code);
    if (kept?.stored === stored) return kept.built.entry;
    let built: BuiltGenericSource;
    try {
      // Configs are checked when the admin API stores them; one written by hand may still be wrong.
      const config = parseGenericConfig({ ...row.adapterConfig, code: row.code });
      built = buildGenericSource(config, { userAgent, logger, network });
    } catch (err) {
      logger.error({ err, source: row.code }, "generic source config unusable: source left out");
      return kept?.built.entry;
    }
    kept?.built.retire();
    generics.set(row.code, { stored, built });
    return built.entry;
  }

  async function rebuild(): Promise<void> {
    let rows: SourceSiteRow[];
    try {
      rows = await repo.list();
    } catch (err) {
      logger.error({ err }, "source directory not rebuilt: source_sites unreadable");
      return;
    }
    const rowOf = new Map(rows.map((r) => [r.code, r]));
    let pluginEntries: ReadonlyMap<string, SourceAdapterEntry> = new Map();
    try {
      if (plugins) pluginEntries = await plugins(rows);
    } catch (err) {
      logger.error({ err }, "plugins not loaded: the sources go on without them");
    }
    const next: { entry: SourceAdapterEntry; sort: number }[] = [];
    builtins.forEach((entry, i) => {
      const row = rowOf.get(entry.code);
      if (row && !row.enabled) return;
      next.push({ entry: shown(pluginEntries.get(entry.code) ?? entry, row), sort: row?.sort ?? Number.MAX_SAFE_INTEGER - builtins.length + i });
    });
    const inUse = new Set<string>();
    for (const row of rows) {
      if (builtinCodes.has(row.code) || !row.enabled) continue;
      const plugged = pluginEntries.get(row.code);
      if (plugged) {
        next.push({ entry: shown(plugged, row), sort: row.sort });
        continue;
      }
      if (!row.adapterConfig) continue;
      const entry = genericOf({ ...row, adapterConfig: row.adapterConfig });
      if (!entry) continue;
      inUse.add(row.code);
      next.push({ entry: shown(entry, row), sort: row.sort });
    }
    for (const [code, kept] of generics) {
      if (inUse.has(code)) continue;
      kept.built.retire();
      generics.delete(code);
    }
    const previous = entries;
    // Stable: equal sorts keep the built-ins' given order, then the rows' (sort, code) order.
    entries = next.sort((a, b) => a.sort - b.sort).map((n) => n.entry);
    byCode = new Map(entries.map((e) => [e.code, e]));
    for (const listener of listeners) {
      try {
        listener(previous, entries);
      } catch (err) {
        logger.error({ err }, "source directory listener failed");
      }
    }
  }

  function refresh(): Promise<void> {
    // A rebuild not started yet will read the newest rows: no need for a second one.
    if (pending) return pending;
    const run = queue.then(() => {
      pending = null;
      return rebuild();
    });
    pending = run;
    queue = run;
    return run;
  }

  const unsubscribe = bus.subscribe((event) => {
    if (event.type === "sources") void refresh();
  });

  return {
    list: () => entries,
    get: (code) => byCode.get(code),
    refresh,
    settled: () => queue,
    defaultTimeoutMs(code) {
      const own = builtins.find((b) => b.code === code) ?? generics.get(code)?.built.entry;
      return own ? (own.timeoutMs ?? SOURCE_SEARCH_TIMEOUT_MS) : undefined;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      unsubscribe();
      for (const { built } of generics.values()) built.close();
      generics.clear();
    },
  };
}
