/**
 * What /metrics costs per request (ADR 0044): two servers alike but for METRICS_ALLOW (the
 * default, loopback: the per-route histogram's hook runs on every request; `none`: no hook, no
 * route), each in its own process on an in-memory PGlite, measured by autocannon on /healthz
 * in alternating runs (so the machine's own load shows instead of skewing one side), with the
 * server CPU each request took (the steadier measure on a shared machine).
 *
 *   npx tsx bench/metrics-overhead.ts [--duration 5] [--connections 20] [--rounds 3] [--path /healthz]
 */
import autocannon from "autocannon";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    serve: { type: "string" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
    path: { type: "string", default: "/healthz" },
  },
});

if (values.serve !== undefined) {
  // The child: the real app, as main.ts builds it, without the log (both sides alike).
  const { buildApp } = await import("../server/app.js");
  const { loadConfig } = await import("../server/config.js");
  const { createTestDatabase } = await import("../server/testing/test-db.js");
  const database = await createTestDatabase("pglite");
  const config = loadConfig({ NODE_ENV: "production", CHARTS_REBUILD_INTERVAL_MS: "0", METRICS_ALLOW: values.serve, DATA_DIR: "/tmp/djbench-metrics", EXTERNAL_SOURCES: "none" });
  // No external source: the overhead of /metrics on our own answers (ADR 0047).
  const app = await buildApp({ config, database, logger: false, sourceAdapters: [] });
  await app.listen({ host: "127.0.0.1", port: 0 });
  process.send!({ port: (app.server.address() as { port: number }).port });
  // The CPU this process has used, on request: per request it is the measure a busy machine
  // disturbs least (req/s moves with everything else the cores run).
  process.on("message", () => process.send!({ cpu: process.cpuUsage() }));
} else {
  const start = (allow: string) => {
    const child = fork(fileURLToPath(import.meta.url), ["--serve", allow], { execArgv: ["--import", "tsx"], env: { ...process.env, NODE_ENV: "production" } });
    const cpuMicros = () =>
      new Promise<number>((resolve) => {
        child.once("message", (m) => {
          const { user, system } = (m as { cpu: NodeJS.CpuUsage }).cpu;
          resolve(user + system);
        });
        child.send("cpu");
      });
    return new Promise<{ url: string; stop: () => void; cpuMicros: () => Promise<number> }>((resolve, reject) => {
      child.once("message", (m) => resolve({ url: `http://127.0.0.1:${(m as { port: number }).port}`, stop: () => child.kill("SIGTERM"), cpuMicros }));
      child.once("exit", (code) => reject(new Error(`server exited (${code})`)));
    });
  };
  const servers = { "with metrics": await start("loopback"), "without metrics": await start("none") };
  const run = (url: string) =>
    autocannon({ url: `${url}${values.path}`, connections: Number(values.connections), duration: Number(values.duration) });
  for (const s of Object.values(servers)) await autocannon({ url: `${s.url}${values.path}`, connections: 10, duration: 2 });
  const rows = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const [name, s] of Object.entries(servers)) {
      const before = await s.cpuMicros();
      const r = await run(s.url);
      const cpu = (await s.cpuMicros()) - before;
      rows.push({
        round,
        run: name,
        "req/s": Math.round(r.requests.average),
        "p50 ms": r.latency.p50,
        "p99 ms": r.latency.p99,
        "server CPU µs/req": Math.round(cpu / r.requests.total),
        non2xx: r.non2xx,
        errors: r.errors,
      });
    }
  }
  console.table(rows);
  for (const name of Object.keys(servers)) {
    const mine = rows.filter((r) => r.run === name);
    const mean = (key: "req/s" | "server CPU µs/req") => Math.round(mine.reduce((a, r) => a + r[key], 0) / mine.length);
    console.log(`${name}: mean ${mean("req/s")} req/s, ${mean("server CPU µs/req")} µs of server CPU per request`);
  }
  const metrics = await (await fetch(`${servers["with metrics"].url}/metrics`)).text();
  console.log(metrics.split("\n").filter((l) => l.startsWith("djsearch_http_request_duration_seconds_count")).join("\n"));
  for (const s of Object.values(servers)) s.stop();

  // The hook itself, alone: the exact function every request runs, on a mix of routes and pages.
  const { Registry } = await import("prom-client");
  const { registerHttpMetrics } = await import("../server/modules/metrics/http-metrics.js");
  let hook: ((request: unknown, reply: unknown, done: () => void) => void) | undefined;
  registerHttpMetrics({ addHook: (_name: string, fn: typeof hook) => (hook = fn) } as never, new Registry());
  const requests = [
    { routeOptions: { url: "/api/forntend/getmusicinfo" }, method: "GET", url: "/api/forntend/getmusicinfo?id=7" },
    { routeOptions: { url: "/*" }, method: "GET", url: "/sutie/123.html" },
    { routeOptions: { url: "/*" }, method: "GET", url: "/" },
    { routeOptions: { url: "/*" }, method: "GET", url: "/no/such/page" },
    { routeOptions: { url: undefined }, method: "POST", url: "/api/nothing" },
  ];
  const replies = [{ statusCode: 200, elapsedTime: 3.2 }, { statusCode: 404, elapsedTime: 0.4 }];
  const calls = 1_000_000;
  const noop = () => {};
  const started = process.cpuUsage();
  for (let i = 0; i < calls; i++) hook!(requests[i % requests.length], replies[i % replies.length], noop);
  const used = process.cpuUsage(started);
  console.log(`the request hook alone: ${(((used.user + used.system) * 1000) / calls).toFixed(0)} ns of CPU per request (${calls} calls)`);
}
