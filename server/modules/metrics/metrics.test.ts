/**
 * GET /metrics (ADR 0044) on the real app, both engines: what it shows after real requests and
 * work, and who may read it (loopback by the socket's address, never through a proxy; a token).
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { Registry } from "prom-client";
import { inProcessBus } from "../../events/bus.js";
import { CacheRegistry } from "../../lib/cache.js";
import { collectRepo } from "../collect/repo.js";
import { healthBoard } from "../sources/health.js";
import { registerAppMetrics } from "./app-metrics.js";

const TOKEN = "metrics-token-0123456789";

/** The value of one sample line, e.g. `name{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(testEngines())("/metrics on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  const scrape = async () => {
    const res = await app.inject({ url: "/metrics" });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { METRICS_TOKEN: TOKEN } });
    app = testApp.app;
  });
  afterAll(() => testApp?.close());

  it("counts requests by route pattern, method and status class, never by raw URL", async () => {
    // A guest asking an admin route with a parameter: 401, three URLs, one pattern.
    for (const id of [1, 2, 3]) await app.inject({ url: `/api/pandaadmin/collect/jobs/${id}` });
    await app.inject({ url: "/healthz" });
    await app.inject({ url: "/no/such/place?x=1" });
    const res = await app.inject({ url: "/metrics" });
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers["cache-control"]).toBe("no-store");
    const text = res.body;
    const count = (route: string, status: string) =>
      sample(text, `djsearch_http_request_duration_seconds_count{route="${route}",method="GET",status_class="${status}"}`);
    expect(count("/api/pandaadmin/collect/jobs/:id", "4xx")).toBe(3);
    expect(count("/healthz", "2xx")).toBe(1);
    expect(count("unmatched", "4xx")).toBe(1);
    expect(text).not.toContain("/api/pandaadmin/collect/jobs/1");
    expect(text).not.toContain("/no/such/place");
    expect(text).toContain('djsearch_http_request_duration_seconds_bucket{le="0.005",route="/healthz",method="GET",status_class="2xx"}');
  });

  it("shows the caches, the database pool, the process and the event loop", async () => {
    await app.inject({ url: "/api/forntend/gettopnav" });
    await app.inject({ url: "/api/forntend/gettopnav" });
    const text = await scrape();
    const caches = app.services.caches.stats();
    expect(caches.length).toBeGreaterThan(5);
    for (const cache of caches) expect(sample(text, `djsearch_cache_max_bytes{cache="${cache.name}"}`)).toBe(cache.maxBytes);
    const navigation = caches.find((c) => c.name === "navigation")!;
    expect(navigation.hits).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'djsearch_cache_hits_total{cache="navigation"}')).toBe(navigation.hits);
    expect(sample(text, 'djsearch_cache_misses_total{cache="navigation"}')).toBe(navigation.misses);
    expect(sample(text, 'djsearch_cache_entries{cache="navigation"}')).toBe(navigation.entries);
    expect(sample(text, `djsearch_db_pool_connections{engine="${engine}"}`)).toBeGreaterThanOrEqual(1);
    expect(sample(text, `djsearch_db_pool_waiting{engine="${engine}"}`)).toBe(0);
    // PGlite: one engine; PostgreSQL: the pool's own cap (the test databases' is small).
    expect(sample(text, `djsearch_db_pool_max{engine="${engine}"}`)).toBe(engine === "pglite" ? 1 : (testApp.database.db as unknown as { $client: { options: { max: number } } }).$client.options.max);
    expect(sample(text, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });

  it("shows collect jobs and their progress, chart rebuilds, and the sources' health", async () => {
    const repo = collectRepo(testApp.database.db);
    const plan = [
      { type: "chart" as const, period: "day" as const, kind: "mix" as const, maxPages: 1 },
      { type: "category" as const, key: "c1", name: "串烧", maxPages: 2 },
    ];
    await repo.queue({ source: "metrics-src", trigger: "manual", plan });
    let text = await scrape();
    expect(sample(text, "djsearch_metrics_database_up")).toBe(1);
    expect(sample(text, 'djsearch_collect_jobs{state="queued"}')).toBe(1);
    expect(sample(text, 'djsearch_collect_job_progress_ratio{source="metrics-src",state="queued"}')).toBe(0);
    expect(sample(text, 'djsearch_collect_job_pages{source="metrics-src",state="queued"}')).toBe(0);
    expect(sample(text, "djsearch_charts_rebuilds_total")).toBe(0);

    const result = await app.services.charts.rebuildCharts();
    expect(result.status).toBe("rebuilt");
    text = await scrape();
    expect(sample(text, "djsearch_charts_rebuilds_total")).toBe(1);

  });

  it("shows each source's calls and breaker as its health board counts them", async () => {
    // The app's board lists the directory's sources (none here): a board of its own, same collectors.
    const registry = new Registry();
    const board = healthBoard({ failureThreshold: 2 });
    registerAppMetrics(registry, { caches: new CacheRegistry(), sourceHealth: board, bus: inProcessBus(), db: testApp.database.db, engine });
    const health = board.track("probe-src", "探针");
    health.succeeded(120);
    health.failed(80, { kind: "timeout", message: "late" });
    let text = await registry.metrics();
    expect(sample(text, 'djsearch_source_calls_total{source="probe-src"}')).toBe(2);
    expect(sample(text, 'djsearch_source_failures_total{source="probe-src"}')).toBe(1);
    expect(sample(text, 'djsearch_source_success_ratio{source="probe-src"}')).toBe(0.5);
    expect(sample(text, 'djsearch_source_latency_seconds{source="probe-src",quantile="0.95"}')).toBe(0.12);
    expect(sample(text, 'djsearch_source_breaker_state{source="probe-src",state="closed"}')).toBe(1);
    health.failed(80, { kind: "timeout", message: "late" });
    text = await registry.metrics();
    expect(sample(text, 'djsearch_source_breaker_state{source="probe-src",state="open"}')).toBe(1);
    expect(sample(text, 'djsearch_source_breaker_state{source="probe-src",state="closed"}')).toBe(0);
  });

  it("is the ordinary 404 to anyone else: another address, a forwarded request, a wrong token", async () => {
    const notFound = await app.inject({ url: "/no-such-page-here" });
    const refused = [
      await app.inject({ url: "/metrics", remoteAddress: "203.0.113.9" }),
      // nginx connects from loopback: a forwarded request never passes by address.
      await app.inject({ url: "/metrics", headers: { "x-forwarded-for": "127.0.0.1" } }),
      await app.inject({ url: "/metrics", headers: { "x-real-ip": "127.0.0.1" } }),
      await app.inject({ url: "/metrics", remoteAddress: "203.0.113.9", headers: { authorization: `Bearer ${TOKEN}x` } }),
      await app.inject({ url: "/metrics", remoteAddress: "203.0.113.9", headers: { authorization: TOKEN } }),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toBe(notFound.headers["content-type"]);
      expect(JSON.parse(res.body).msg).toBe(JSON.parse(notFound.body).msg);
      expect(res.body).not.toContain("djsearch_");
    }
    const withToken = await app.inject({ url: "/metrics", remoteAddress: "203.0.113.9", headers: { authorization: `Bearer ${TOKEN}`, "x-forwarded-for": "198.51.100.1" } });
    expect(withToken.statusCode).toBe(200);
    expect(withToken.body).toContain("djsearch_http_request_duration_seconds");
  });
});

describe("/metrics over real sockets, and switched off", () => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it("answers a loopback connection, refuses one through a forwarding header", async () => {
    const testApp = await createTestApp("pglite");
    apps.push(testApp);
    const address = await testApp.app.listen({ host: "127.0.0.1", port: 0 });
    const direct = await fetch(`${address}/metrics`);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toContain("process_resident_memory_bytes");
    expect((await fetch(`${address}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1" } })).status).toBe(404);
  });

  it("with METRICS_ALLOW=none and no token there is no /metrics at all", async () => {
    const testApp = await createTestApp("pglite", { env: { METRICS_ALLOW: "none" } });
    apps.push(testApp);
    expect((await testApp.app.inject({ url: "/metrics" })).statusCode).toBe(404);
  });

  it("a METRICS_ALLOW range lets that network in, by the connection's address", async () => {
    const testApp = await createTestApp("pglite", { env: { METRICS_ALLOW: "10.0.0.0/8" } });
    apps.push(testApp);
    expect((await testApp.app.inject({ url: "/metrics", remoteAddress: "10.1.2.3" })).statusCode).toBe(200);
    expect((await testApp.app.inject({ url: "/metrics", remoteAddress: "::ffff:10.1.2.3" })).statusCode).toBe(200);
    expect((await testApp.app.inject({ url: "/metrics" })).statusCode).toBe(404);
  });
});
