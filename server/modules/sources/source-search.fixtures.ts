/**
 * External sources for the search tests: real adapters (djuu's code adapter, and the generic
 * adapter configured from djuu.generic.json as a second site, 镜像DJ) on local fixture sites.
 */
import { readFileSync } from "node:fs";
import { captureLog } from "../../testing/log-capture.js";
import { startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { createDjuuAdapter } from "./adapters/djuu.js";
import { serveDjuu } from "./adapters/djuu.fixtures.js";
import { parseGenericConfig } from "./adapters/generic-config.js";
import { createGenericAdapter } from "./adapters/generic.js";
import { createSourceFetcher } from "./fetch/client.js";
import type { SourceAdapterEntry } from "./source-provider.js";

const djuuConfig = JSON.parse(readFileSync(new URL("./adapters/djuu.generic.json", import.meta.url), "utf8")) as Record<string, unknown>;

export interface FixtureSource {
  site: FixtureSite;
  entry: SourceAdapterEntry;
  /** The site's fetcher (a test may hand the entry `setTimeoutMs` through it). */
  fetcher: ReturnType<typeof fetcherFor>;
  /** Search requests the site received. */
  searches(): number;
  close(): Promise<void>;
}

function fetcherFor(source: string, site: FixtureSite) {
  return createSourceFetcher({
    source,
    allowedHosts: [site.host],
    allowAddresses: [site.host],
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: captureLog().logger,
    minIntervalMs: 0,
    concurrency: 8,
  });
}

async function fixtureSource(
  override: ((site: FixtureSite) => void) | undefined,
  build: (site: FixtureSite, fetcher: ReturnType<typeof fetcherFor>) => SourceAdapterEntry,
  code: string,
): Promise<FixtureSource> {
  const site = await startFixtureSite();
  override?.(site);
  serveDjuu(site);
  const fetcher = fetcherFor(code, site);
  return {
    site,
    // The canary's taps, as the real entries hand them on (registry.ts, generic-source.ts).
    entry: { ...build(site, fetcher), tapAnswers: (listener) => fetcher.tapAnswers(listener) },
    fetcher,
    searches: () => site.hits.filter((h) => h.path === "/search").length,
    close: async () => {
      fetcher.close();
      await site.close();
    },
  };
}

/** djuu (code adapter) on a fixture site; `override` routes win over its pages (e.g. `/search` hanging). */
export function djuuSource(override?: (site: FixtureSite) => void, timeoutMs = 3_000): Promise<FixtureSource> {
  return fixtureSource(
    override,
    (site, fetcher) => ({
      code: "djuu",
      name: "DJUU",
      homepage: site.url,
      logo: "/static/sites/djuu.png",
      timeoutMs,
      adapter: createDjuuAdapter({ fetcher, baseUrl: site.url, apiBaseUrl: `${site.url}/app/v1` }),
    }),
    "djuu",
  );
}

/** A second site with djuu's pages, read by the generic adapter from configuration: 镜像DJ (`mirror`). */
export function mirrorSource(override?: (site: FixtureSite) => void, timeoutMs = 3_000): Promise<FixtureSource> {
  return fixtureSource(
    override,
    (site, fetcher) => {
      const config = parseGenericConfig({ ...djuuConfig, code: "mirror", name: "镜像DJ", baseUrl: site.url, bases: { api: `${site.url}/app/v1` }, hosts: [site.host] });
      return { code: "mirror", name: "镜像DJ", homepage: site.url, logo: "/static/sites/mirror.png", timeoutMs, adapter: createGenericAdapter(config, fetcher) };
    },
    "mirror",
  );
}
