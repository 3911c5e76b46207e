import type { CatalogueItem } from "@contracts/catalogue-item";

/** What every provider is asked: the validated query with the page already resolved. */
export interface ProviderQuery {
  keyword: string;
  page: number;
  pageSize: number;
  type: "mp3" | "mp4";
  /** Source site code to restrict to, or undefined for all. */
  channel?: string;
  kind?: "mix" | "single";
}

export interface ProviderResult {
  list: CatalogueItem[];
  total: number;
  /** True when `total` is a lower bound (the provider stopped counting). */
  capped?: boolean;
  /**
   * Seconds per hit of `list` (same order), where the provider knows them: the merge treats two
   * hits of the same artist and title as one only when their durations, if both known, are
   * within a few seconds (a 4-minute single is not its 60-minute mix).
   */
  durations?: (number | null)[];
  /**
   * The list is already in the provider's own ranking by closeness to the keyword (the local
   * catalogue: exact, prefix, substring, then pinyin, popularity between equals): the merge keeps
   * its order. Other lists are ordered by the merge's closeness score first.
   */
  ranked?: boolean;
}

/**
 * A provider that refuses to be asked right now (an external source whose circuit breaker is
 * open). The search names it in `errors` with this message, like a timeout, and never waits.
 */
export class ProviderUnavailable extends Error {
  constructor(readonly source: string, message = "源站暂时不可用") {
    super(message);
    this.name = "ProviderUnavailable";
  }
}

/**
 * A provider that does not serve this query at all and was not asked (a site that declares it
 * cannot answer it: 172Mix's firewall refuses every non-ASCII keyword). Neither a result nor an
 * error: the search leaves it out of `errors`, and the source's health records nothing.
 */
export class ProviderSkipped extends Error {
  constructor(readonly source: string, message = "not served by this source") {
    super(message);
    this.name = "ProviderSkipped";
  }
}

/**
 * A place to search: our own catalogue (`local`) now; djuu, 172minx and vvvdj live adapters
 * later (external-sources issue). A provider must honour `signal` where it can (HTTP fetches);
 * the service stops waiting for it at its timeout either way.
 */
export interface SearchProvider {
  /** Provider code, shown in `errors[].source` and in each hit's `source`. */
  readonly code: string;
  readonly name: string;
  /** How long the service waits for this provider. */
  readonly timeoutMs: number;
  /**
   * Whether to ask this provider for a channel (undefined = all channels). The local catalogue
   * holds items of every site, so it serves every channel; a site adapter serves its own.
   */
  serves(channel: string | undefined): boolean;
  search(query: ProviderQuery, signal: AbortSignal): Promise<ProviderResult>;
}
