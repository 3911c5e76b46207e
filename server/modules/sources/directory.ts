import type { SourceAdapterEntry } from "./source-provider.js";

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

/** A directory fixed at start-up (the built-in adapters chosen by EXTERNAL_SOURCES). */
export function staticSourceDirectory(entries: readonly SourceAdapterEntry[]): SourceDirectory {
  const byCode = new Map(entries.map((entry) => [entry.code, entry]));
  return { list: () => entries, get: (code) => byCode.get(code) };
}
