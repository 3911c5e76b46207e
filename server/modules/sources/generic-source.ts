import net from "node:net";
import type { DbLogger } from "../../db/types.js";
import { createGenericAdapter } from "./adapters/generic.js";
import type { GenericSourceConfig } from "./adapters/generic-config.js";
import { addressAllowed, type LookupFunction } from "./fetch/address-guard.js";
import { createSourceFetcher } from "./fetch/client.js";
import { createMediaStreamer } from "./fetch/stream.js";
import { DEFAULT_SOURCE_TIMEOUT_MS } from "./registry.js";
import type { SourceAdapterEntry } from "./source-provider.js";
import type { MediaStreamer, SourceFetcher } from "./types.js";

/**
 * A source configured by data (a `source_sites` row's `adapter_config`): the generic adapter
 * with its own bounded fetcher and media streamer, limited to the config's hosts.
 */

/** Tests only: the fixture addresses DB-configured sources may reach (production sets neither). */
export interface SourceNetwork {
  allowAddresses?: string[];
  lookup?: LookupFunction;
}

export interface BuiltGenericSource {
  entry: SourceAdapterEntry;
  /** No new work: close its sockets once the requests and streams in flight have ended. */
  retire(): void;
  /** Close now (shutdown). */
  close(): void;
}

const hostOf = (url: string) => new URL(url).hostname.toLowerCase().replace(/^\[|\]$/gu, "");

/**
 * What the fetcher's rules would refuse at every request, said once when the config is stored:
 * an address literal that is private, loopback or link-local, and a base address whose host is
 * not among `hosts`. (A host name resolving to such an address is refused at connect time.)
 */
export function configProblems(config: GenericSourceConfig, network: SourceNetwork = {}): string[] {
  const allow = new Set(network.allowAddresses ?? []);
  const problems: string[] = [];
  const hosts = new Set(config.hosts.map((h) => h.toLowerCase().replace(/^\[|\]$/gu, "")));
  for (const host of [...hosts, ...config.mediaHosts.map((h) => h.toLowerCase().replace(/^\[|\]$/gu, ""))]) {
    if (net.isIP(host) !== 0 && !addressAllowed(host, allow)) problems.push(`主机 ${host} 是内网或本机地址`);
    if (host === "localhost" || host.endsWith(".localhost")) problems.push(`主机 ${host} 是本机地址`);
  }
  for (const [what, url] of [["baseUrl", config.baseUrl], ...Object.entries(config.bases).map(([name, u]) => [`bases.${name}`, u])] as const) {
    const protocol = new URL(url).protocol;
    if (protocol !== "http:" && protocol !== "https:") problems.push(`${what} 只能是 http 或 https 地址`);
    else if (!hosts.has(hostOf(url))) problems.push(`${what} 的主机 ${hostOf(url)} 不在 hosts 中`);
  }
  return problems;
}

/** Counts the calls in flight so a replaced source's sockets close only when its last one ends. */
function retirable(fetcher: SourceFetcher & { close(): void }, media: MediaStreamer & { close(): void }) {
  let active = 0;
  let retiring = false;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    fetcher.close();
    media.close();
  };
  const done = () => {
    active -= 1;
    if (retiring && active === 0) close();
  };
  return {
    fetcher: {
      async fetch(request) {
        active += 1;
        try {
          return await fetcher.fetch(request);
        } finally {
          done();
        }
      },
    } satisfies SourceFetcher,
    media: {
      async open(url, headers, signal) {
        active += 1;
        try {
          const stream = await media.open(url, headers, signal);
          stream.body.once("close", done);
          return stream;
        } catch (error) {
          done();
          throw error;
        }
      },
    } satisfies MediaStreamer,
    retire() {
      retiring = true;
      if (active === 0) close();
    },
    close,
  };
}

export function buildGenericSource(
  config: GenericSourceConfig,
  { userAgent, logger, network = {} }: { userAgent: string; logger: Pick<DbLogger, "warn">; network?: SourceNetwork },
): BuiltGenericSource {
  const timeoutMs = config.timeoutMs ?? DEFAULT_SOURCE_TIMEOUT_MS;
  const testing = {
    ...(network.allowAddresses ? { allowAddresses: network.allowAddresses } : {}),
    ...(network.lookup ? { lookup: network.lookup } : {}),
  };
  const fetcher = createSourceFetcher({
    source: config.code,
    allowedHosts: config.hosts,
    userAgent,
    logger,
    timeoutMs,
    ...(config.concurrency !== undefined ? { concurrency: config.concurrency } : {}),
    ...(config.minIntervalMs !== undefined ? { minIntervalMs: config.minIntervalMs } : {}),
    ...testing,
  });
  const mediaHosts = config.mediaHosts.length > 0 ? config.mediaHosts : config.hosts;
  const media = createMediaStreamer({ source: config.code, allowedHosts: mediaHosts, userAgent, logger, ...testing });
  const counted = retirable(fetcher, media);
  // Every way to the media gives HLS: the hits tell the player before it loads.
  const hlsOnly = config.media.length > 0 && config.media.every((op) => op.format === "hls");
  return {
    entry: {
      code: config.code,
      name: config.name,
      homepage: config.baseUrl,
      timeoutMs,
      ...(hlsOnly ? { playFormat: "hls" as const } : {}),
      adapter: createGenericAdapter(config, counted.fetcher),
      media: counted.media,
      setTimeoutMs: (ms) => fetcher.setTimeoutMs(ms),
      tapAnswers: (listener) => fetcher.tapAnswers(listener),
    },
    retire: counted.retire,
    close: counted.close,
  };
}
