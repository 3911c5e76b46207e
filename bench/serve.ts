/**
 * The benchmarked server: the real app (buildApp, production mode, logger off unless `--log`) on
 * a seeded database, in a process of its own so the load generator does not share its CPU.
 *
 *   npx tsx bench/serve.ts [--suites 100000] [--plays 1000000] [--web] [--port 0] [--members 0] [--log]
 *
 * Run it with NODE_ENV=production (bench/api.ts and bench/lighthouse.ts do): React's server
 * renderer, loaded by Node from node_modules, picks its development build otherwise.
 *
 * Database: DATABASE_URL (PostgreSQL) when set, else PGlite under DATA_DIR (required). The seed
 * resumes, so a database seeded before is reused as it is (keep DATA_DIR, or the PostgreSQL
 * database, between runs). Charts are rebuilt once before listening, as at start-up.
 * `--admin` signs an editor `benchadmin` in and hands its token over (bench/admin-suites.ts).
 * `--members N` makes N members `benchmember1…N` with the password BENCH_MEMBER_PASSWORD (for
 * bench/login.ts; made once, kept).
 * `--sources {json}` searches the three built-in sources beside the catalogue, each pointed
 * where the JSON's per-code overrides say (`createSourceAdapters({ overrides })`: fixture sites
 * for bench/search-sources.ts; without it none is used and the built-ins are switched off);
 * `--breaker-threshold N` sets the sources' circuit breaker.
 * `--djuu-sources {json}` adds sources under codes of their own, each djuu's adapter on a fixture
 * site: `{"s50": {"baseUrl": "http://127.0.0.1:port", "timeoutMs": 6000}}` (bench/search-stream.ts:
 * four djuu-shaped sites at four latencies; the built-ins are three and parse differently).
 * `--log` logs as `npm start` does (pino at LOG_LEVEL, default info; JSON when stdout is not a
 * terminal), the sources' lines with their request's id (main.ts).
 * `--plugins dir` installs and enables every source plugin (.js) in `dir` (bench/plugins.ts;
 * OUTBOUND_ALLOW must let them reach their fixture sites).
 * `--stamps` records when each streamed search was read and its sites asked (bench/search-stamps.ts)
 * and answers `{ stamps: true }` over IPC with them.
 * `--search-samples N` hands over the search_text of N random visible items (bench/search-load.ts
 * draws its keywords from them); `--search-cache-ms 0` serves no kept search answer (every search asks
 * the database); `--pool N` sizes the PostgreSQL pool (default: openDatabase's).
 * When listening it prints one line `READY {json}` with the port and sample paths, or sends
 * the same object over IPC when started by bench/api.ts or bench/lighthouse.ts.
 */
import { sql } from "drizzle-orm";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { buildApp } from "../server/app.js";
import { warmRequestPath } from "../server/web/warm-up.js";
import { loadConfig } from "../server/config.js";
import { openDatabase } from "../server/db/open.js";
import { seedDemoCatalogue } from "../server/db/seed/index.js";
import { admins, users } from "../server/db/schema/index.js";
import { sessionService } from "../server/modules/accounts/session-service.js";
import { queryRows } from "../server/db/sql.js";
import { categoryPageCounts } from "./category-pages.js";
import { hashPassword } from "../server/modules/accounts/passwords.js";
import { prepareDemoMedia } from "../server/demo-media/prepare-demo-media.js";
import { createSourceAdapters, type SourceOverride } from "../server/modules/sources/registry.js";
import { applyExternalSources } from "../server/modules/sources/builtin-switches.js";
import { BENCH_MEMBER_PASSWORD } from "./bench-members.js";
import { createDjuuAdapter } from "../server/modules/sources/adapters/djuu.js";
import { createSourceFetcher } from "../server/modules/sources/fetch/client.js";
import type { SourceAdapterEntry } from "../server/modules/sources/source-provider.js";
import { createLogger, logFormatFor } from "../server/lib/log-output.js";
import { requestScopedLogger } from "../server/http/request-scope.js";
import { recordSearchStamps } from "./search-stamps.js";

export interface BenchTarget {
  port: number;
  engine: string;
  /** Enabled categories with visible items: diyname and number of pages (10 a page). */
  categories: { diyname: string; pages: number }[];
  /** Ids of visible items. */
  ids: number[];
  seedMs: number;
  /** Usernames of the bench members (`--members`), all with BENCH_MEMBER_PASSWORD. */
  members: string[];
  /** A signed-in admin's token (`--admin`), for the back office's benchmarks. */
  adminToken?: string;
  /** `search_text` of random visible items (`--search-samples`). */
  searchSamples: string[];
  /** The charts' most-played items, best first (the pages' background pre-render takes the first PRERENDER_SUITES). */
  mostPlayed: number[];
}

const { values } = parseArgs({
  options: {
    suites: { type: "string", default: "100000" },
    plays: { type: "string", default: "1000000" },
    web: { type: "boolean", default: false },
    port: { type: "string", default: "0" },
    members: { type: "string", default: "0" },
    admin: { type: "boolean", default: false },
    sources: { type: "string" },
    plugins: { type: "string" },
    "breaker-threshold": { type: "string" },
    "djuu-sources": { type: "string" },
    log: { type: "boolean", default: false },
    "search-samples": { type: "string", default: "0" },
    "search-cache-ms": { type: "string" },
    pool: { type: "string" },
    stamps: { type: "boolean", default: false },
  },
});
// `--stamps`: the streamed search's times inside the server, handed over on request (bench/search-stamps.ts).
if (values.stamps) {
  const stamps = recordSearchStamps();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on("message", (m: { stamps?: boolean; loop?: boolean }) => {
    if (m.stamps) process.send?.({ stamps });
    // This process's event-loop delay since the last ask (ms, the 10 ms resolution included): cheaper than /metrics.
    if (m.loop) {
      process.send?.({ loop: { max: loop.max / 1e6 } });
      loop.reset();
    }
  });
}

/** `--djuu-sources`: djuu's adapter under other codes, each on its fixture site, no politeness limits (the bench's own searches would queue). */
function djuuSources(sites: Record<string, { baseUrl: string; timeoutMs?: number }>) {
  const closers: (() => void)[] = [];
  const entries = Object.entries(sites).map(([code, { baseUrl, timeoutMs = 3_000 }]): SourceAdapterEntry => {
    const host = new URL(baseUrl).hostname;
    const fetcher = createSourceFetcher({ source: code, allowedHosts: [host], allowAddresses: [host], userAgent: "DJSearchBot/1.0 (+http://127.0.0.1/bench)", logger: sourceLogger, minIntervalMs: 0, concurrency: 64, timeoutMs });
    closers.push(() => fetcher.close());
    return { code, name: `${code}站`, homepage: baseUrl, timeoutMs, adapter: createDjuuAdapter({ fetcher, baseUrl, apiBaseUrl: `${baseUrl}/app/v1` }) };
  });
  return { entries, close: () => closers.forEach((close) => close()) };
}

if (process.env.NODE_ENV !== "production") console.warn("bench/serve.ts: NODE_ENV is not production; React renders in development mode");
// Loopback is the proxy: bench/api.ts sends each request as from another client address.
const config = {
  // The pages' canonical links name the host the benches ask (Lighthouse's SEO audit checks it).
  ...loadConfig({ TRUST_PROXY: "127.0.0.1", PUBLIC_URL: "http://127.0.0.1", ...process.env, NODE_ENV: "production", ...(values.log ? {} : { LOG_LEVEL: "silent" }) }),
  port: Number(values.port),
};
// As main.ts builds it: readable on a terminal, JSON when piped.
const logger = values.log ? createLogger({ level: config.logLevel, format: logFormatFor(config.logFormat) }) : undefined;
const sourceLogger = logger ? requestScopedLogger(logger) : { warn: () => undefined };
if (!config.databaseUrl && !process.env.DATA_DIR) throw new Error("set DATABASE_URL or DATA_DIR (the seeded database is kept there)");
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  pgliteSharedBuffers: config.pgliteSharedBuffers,
  pgliteThread: config.pgliteThread,
  pglitePrepared: config.pglitePrepared,
  ...(values.pool ? { poolMax: Number(values.pool) } : {}),
  // As server/main.ts does.
  openPool: true,
});
const external = values.sources
  ? createSourceAdapters({
      userAgent: "DJSearchBot/1.0 (+http://127.0.0.1/bench)",
      logger: sourceLogger,
      overrides: JSON.parse(values.sources) as Record<string, SourceOverride>,
    })
  : undefined;
const djuuCopies = values["djuu-sources"] ? djuuSources(JSON.parse(values["djuu-sources"]) as Record<string, { baseUrl: string; timeoutMs?: number }>) : undefined;
const app = await buildApp({
  config,
  database,
  logger: logger ?? false,
  web: values.web,
  // Sources only when `--sources` points them at fixture sites: a benchmark never asks the real ones.
  sourceAdapters: [...(external?.sources ?? []), ...(djuuCopies?.entries ?? [])],
  // As for the built-ins' fixture sites: politeness limits would queue the bench's own searches.
  ...(values.plugins ? { plugins: { concurrency: 32 } } : {}),
  ...(values["breaker-threshold"] ? { sourceBreaker: { failureThreshold: Number(values["breaker-threshold"]) } } : {}),
  ...(values["search-cache-ms"] ? { searchAnswerLimits: { freshMs: Number(values["search-cache-ms"]), staleMs: Number(values["search-cache-ms"]) } } : {}),
});
// The built-ins' switches as the run wants them, whatever an earlier start on this DATA_DIR left (ADR 0047).
await applyExternalSources(app.services, external ? external.sources.map((s) => s.code) : [], { info: () => undefined });
const t0 = performance.now();
const media = await prepareDemoMedia(config.dataDir);
// Through the app's write service, as every writer: the same derived columns and change events.
await seedDemoCatalogue(database, { media, suites: Number(values.suites), plays: Number(values.plays), writes: app.services.writes });
const seedMs = Math.round(performance.now() - t0);
await app.services.charts.rebuildCharts();

const categories = await categoryPageCounts(database.db);
const ids = (
  await queryRows<{ id: number }>(database.db, sql`select id from items where status = 'normal' order by random() limit 5000`)
).map((r) => r.id);

const searchSamples = (
  await queryRows<{ text: string }>(
    database.db,
    sql`select search_text as text from items where status = 'normal' and playtype = 'mp3' order by random() limit ${Number(values["search-samples"])}`,
  )
).map((r) => r.text);

const mostPlayed = await app.services.charts.mostPlayed(1000);

// Members to log in as; the unique index keeps a second run from making them again.
const members = Array.from({ length: Number(values.members) }, (_, i) => `benchmember${i + 1}`);
if (members.length > 0) {
  const passwordHash = await hashPassword(BENCH_MEMBER_PASSWORD);
  await database.db
    .insert(users)
    .values(members.map((username) => ({ username, email: `${username}@bench.test`, passwordHash })))
    .onConflictDoNothing();
}

// An editor (content access, as most back-office calls need) with a fresh session.
let adminToken: string | undefined;
if (values.admin) {
  await database.db
    .insert(admins)
    .values({ username: "benchadmin", passwordHash: await hashPassword(BENCH_MEMBER_PASSWORD), role: "editor" })
    .onConflictDoNothing();
  const [admin] = await database.db.select({ id: admins.id }).from(admins).where(sql`lower(${admins.username}) = 'benchadmin'`);
  adminToken = await sessionService(database.db).createAdminSession(admin!.id);
}

// Source plugins (`--plugins dir`): every .js file installed (an earlier run on this DATA_DIR may
// have done it: the same version is refused) and every plugin enabled, as the site itself.
if (values.plugins) {
  const { readdir, readFile } = await import("node:fs/promises");
  const { SITE_ACTOR } = await import("../server/modules/audit/service.js");
  const { pluginAdminMessages } = await import("../contracts/plugin-admin.js");
  const plugins = app.services.plugins.admin;
  for (const file of (await readdir(values.plugins)).filter((f) => f.endsWith(".js")).sort()) {
    const done = await plugins.installFile(SITE_ACTOR, await readFile(path.join(values.plugins, file), "utf8")).catch((err: unknown) => {
      if ((err as Error).message !== pluginAdminMessages.notNewer) throw err;
    });
    // A newer file of an installed platform is staged (ADR 0051): the bench runs the files given.
    for (const staged of done?.staged ?? []) await plugins.activate(SITE_ACTOR, staged.platform, staged.versionId);
  }
  for (const plugin of await plugins.list()) await plugins.patch(SITE_ACTOR, plugin.platform, { enabled: true });
}

// As server/main.ts does before it listens (ADR 0045).
await app.ready();
if (values.web) await warmRequestPath(app);
await app.listen({ host: "127.0.0.1", port: config.port });
const address = app.server.address();
const target: BenchTarget = {
  port: typeof address === "object" && address ? address.port : config.port,
  engine: database.engine,
  categories,
  ids,
  seedMs,
  members,
  adminToken,
  searchSamples,
  mostPlayed,
};
if (process.send) process.send(target);
else console.log(`READY ${JSON.stringify({ ...target, ids: target.ids.slice(0, 10), searchSamples: target.searchSamples.length, mostPlayed: target.mostPlayed.length })}`);

const stop = async () => {
  await app.close();
  external?.close();
  djuuCopies?.close();
  await database.close();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
process.on("disconnect", () => void stop());
