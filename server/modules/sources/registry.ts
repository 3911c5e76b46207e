import type { DbLogger } from "../../db/types.js";
import { createDjuuAdapter } from "./adapters/djuu.js";
import { createMinx172Adapter } from "./adapters/minx172.js";
import { createVvvdjAdapter } from "./adapters/vvvdj.js";
import type { AnswerListener } from "./fetch/answer-tap.js";
import { createSourceFetcher, type LookupFunction } from "./fetch/index.js";
import { createMediaStreamer } from "./fetch/stream.js";
import { BROWSER_USER_AGENT } from "./fetch/user-agent.js";
import type { AdapterContext, MediaStreamer, SourceAdapter } from "./types.js";

/**
 * The built-in sources (issue 11; SOURCES.md): who they are, which hosts their fetcher may
 * reach, and how hard we may ask them. Shown names as the spec's charts switch writes them.
 */

export interface SourceSettings {
  code: string;
  /** Shown name. */
  name: string;
  homepage: string;
  logo?: string;
  /** Page and API hosts the fetcher may reach (every redirect target too). */
  hosts: string[];
  /** Hosts resolved media addresses live on (for the media proxy: "only resolved source hosts"); `*.site.com` is any host under site.com (fetch/host-pattern.ts). */
  mediaHosts: string[];
  /** One request, and the search's wait for this source (issue 11: default 3 s). */
  timeoutMs: number;
  /** "hls" when the site streams HLS playlists only (the player must know before it loads). */
  playFormat?: "hls";
  /** Requests at once and the gap between starts (public scrapers wait 0.3-1 s). */
  concurrency: number;
  minIntervalMs: number;
  /** What its pages and media are asked with (default BROWSER_USER_AGENT); a request's own header wins. */
  userAgent?: string;
}

/** What the search, health and collector use: one built adapter with its settings. */
export interface SourceDefinition {
  code: string;
  name: string;
  homepage: string;
  logo?: string;
  /** The built-in default; the directory applies an admin's `source_sites.timeout_ms` over it. */
  timeoutMs: number;
  playFormat?: "hls";
  mediaHosts: string[];
  adapter: SourceAdapter;
  /** Changes the fetcher's per-request timeout from now on (requests in flight keep theirs). */
  setTimeoutMs?(ms: number): void;
  /** Listens to the answers of the source's fetcher (the canary, ADR 0049). */
  tapAnswers?(listener: AnswerListener): () => void;
  /** Streams resolved media that needs headers (a Referer) from `mediaHosts` only. */
  media: MediaStreamer;
}

export const DEFAULT_SOURCE_TIMEOUT_MS = 3_000;

export const BUILTIN_SOURCES: readonly SourceSettings[] = [
  {
    code: "djuu",
    name: "DJUU",
    homepage: "https://www.djuu.com",
    hosts: ["www.djuu.com", "android.djuu.com", "m.djuu.com"],
    mediaHosts: ["*.djuu.com"],
    timeoutMs: DEFAULT_SOURCE_TIMEOUT_MS,
    concurrency: 4,
    minIntervalMs: 300,
  },
  {
    // Its firewall already refuses some queries: asked more gently than the others.
    code: "172minx",
    name: "172Mix",
    homepage: "https://www.172mix.com",
    hosts: ["www.172mix.com", "m.172mix.com"],
    mediaHosts: ["*.172mix.com"],
    timeoutMs: DEFAULT_SOURCE_TIMEOUT_MS,
    concurrency: 2,
    minIntervalMs: 500,
  },
  {
    code: "vvvdj",
    name: "清风DJ",
    homepage: "https://www.vvvdj.com",
    hosts: ["www.vvvdj.com", "m.vvvdj.com"],
    mediaHosts: ["*.vvvdj.com"],
    playFormat: "hls",
    timeoutMs: DEFAULT_SOURCE_TIMEOUT_MS,
    concurrency: 4,
    minIntervalMs: 300,
  },
];

/** Per source: where to find it instead (tests: a fixture site) and how to bound it. */
export interface SourceOverride {
  baseUrl?: string;
  /** djuu only: its app API (default https://android.djuu.com/app/v1). */
  apiBaseUrl?: string;
  timeoutMs?: number;
  concurrency?: number;
  minIntervalMs?: number;
  userAgent?: string;
  /** Added to the source's hosts (the override's base URL hosts are added on their own). */
  extraHosts?: string[];
  /** Added to the source's media hosts (tests: the fixture site serving the media). */
  extraMediaHosts?: string[];
  /** Tests only: fixture server addresses the SSRF guard lets through. */
  allowAddresses?: string[];
  lookup?: LookupFunction;
}

export interface CreateSourceAdaptersOptions {
  /** One User-Agent for every source (tests); default each source's own (`SourceSettings.userAgent`). */
  userAgent?: string;
  logger: Pick<DbLogger, "warn">;
  overrides?: Partial<Record<string, SourceOverride>>;
}

const BUILDERS: Record<string, (context: AdapterContext & { apiBaseUrl?: string }) => SourceAdapter> = {
  djuu: (context) => createDjuuAdapter(context),
  "172minx": (context) => createMinx172Adapter(context),
  vvvdj: (context) => createVvvdjAdapter(context),
};

/** Builds the three built-in adapters, each with its own fetcher; `close()` releases their sockets. */
export function createSourceAdapters(options: CreateSourceAdaptersOptions): { sources: SourceDefinition[]; close(): void } {
  const closers: (() => void)[] = [];
  const sources = BUILTIN_SOURCES.map((settings): SourceDefinition => {
    const override = options.overrides?.[settings.code] ?? {};
    const baseUrl = override.baseUrl ?? settings.homepage;
    const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/gu, "");
    const hosts = [...settings.hosts, ...(override.extraHosts ?? []), hostOf(baseUrl), ...(override.apiBaseUrl ? [hostOf(override.apiBaseUrl)] : [])];
    const timeoutMs = override.timeoutMs ?? settings.timeoutMs;
    const userAgent = override.userAgent ?? options.userAgent ?? settings.userAgent ?? BROWSER_USER_AGENT;
    const fetcher = createSourceFetcher({
      source: settings.code,
      allowedHosts: [...new Set(hosts)],
      userAgent,
      logger: options.logger,
      timeoutMs,
      concurrency: override.concurrency ?? settings.concurrency,
      minIntervalMs: override.minIntervalMs ?? settings.minIntervalMs,
      ...(override.allowAddresses ? { allowAddresses: override.allowAddresses } : {}),
      ...(override.lookup ? { lookup: override.lookup } : {}),
    });
    const mediaHosts = [...settings.mediaHosts, ...(override.extraMediaHosts ?? [])];
    const media = createMediaStreamer({
      source: settings.code,
      allowedHosts: mediaHosts,
      userAgent,
      logger: options.logger,
      ...(override.allowAddresses ? { allowAddresses: override.allowAddresses } : {}),
      ...(override.lookup ? { lookup: override.lookup } : {}),
    });
    closers.push(() => fetcher.close(), () => media.close());
    const adapter = BUILDERS[settings.code]!({ fetcher, baseUrl, ...(override.apiBaseUrl ? { apiBaseUrl: override.apiBaseUrl } : {}) });
    return {
      code: settings.code,
      name: settings.name,
      homepage: settings.homepage,
      ...(settings.logo ? { logo: settings.logo } : {}),
      timeoutMs,
      ...(settings.playFormat ? { playFormat: settings.playFormat } : {}),
      mediaHosts,
      adapter,
      media,
      setTimeoutMs: (ms) => fetcher.setTimeoutMs(ms),
      tapAnswers: (listener) => fetcher.tapAnswers(listener),
    };
  });
  return { sources, close: () => closers.splice(0).forEach((close) => close()) };
}
