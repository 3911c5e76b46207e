/**
 * npm run cluster [-- --port 8080] [--host 127.0.0.1] [--instances 2] [--build]
 *
 * The whole stack on one machine (ADR 0041): instances of the built server (build/node/main.js,
 * started as `npm run serve` starts it; built first when missing or with --build) on the
 * machine's PostgreSQL and Redis, behind Debian's nginx (installed with apt-get when missing),
 * run in the foreground with its own config, pid and logs under DATA_DIR/nginx.
 *
 * - DATABASE_URL: default postgres://postgres@127.0.0.1:5432/djcluster, created when missing.
 * - REDIS_URL: passed to the instances; default redis://127.0.0.1:6379 when it answers.
 * - DATA_DIR: the instances' media and uploads (shared), nginx's files; default ./data/cluster.
 * Ctrl-C stops everything: nginx finishes what it serves, each instance shuts down gracefully.
 */
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT, SERVER_BUILD, startCluster } from "./cluster/stack.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8080" },
    host: { type: "string", default: "127.0.0.1" },
    instances: { type: "string", default: "2" },
    build: { type: "boolean", default: false },
  },
});

/** Whether a Redis answers PING at `url` (a plain RESP exchange, one second at most). */
function redisAnswers(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    // +PONG, or -NOAUTH when it wants a password (then REDIS_URL must carry it).
    socket.once("data", (d) => done(d.toString().startsWith("+PONG")));
  });
}

/** An instance's JSON log line as one short line; request logs are left in its log file. */
function shown(line: string): string | undefined {
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string; req?: unknown; res?: unknown };
    if ((entry.req || entry.res) && (entry.level ?? 30) < 50) return undefined;
    return entry.msg;
  } catch {
    return line.trim() || undefined;
  }
}

if (values.build || !existsSync(SERVER_BUILD) || !existsSync(path.join(ROOT, "build", "server", "index.js"))) {
  execSync("npm run build", { cwd: ROOT, stdio: "inherit" });
}
const databaseUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/djcluster";
let redisUrl = process.env.REDIS_URL || undefined;
if (!redisUrl && (await redisAnswers("redis://127.0.0.1:6379"))) redisUrl = "redis://127.0.0.1:6379";
const dataDir = path.resolve(process.env.DATA_DIR || path.join(ROOT, "data", "cluster"));

console.log(`database ${databaseUrl.replace(/\/\/[^@/]*@/, "//…@")}; redis ${redisUrl ?? "none (each instance keeps its own state)"}; data ${dataDir}`);
const cluster = await startCluster({
  databaseUrl,
  redisUrl,
  dataDir,
  instances: Number(values.instances),
  // As `npm start`: the operator's EXTERNAL_SOURCES, else every built-in site (ADR 0047).
  externalSources: process.env.EXTERNAL_SOURCES ?? "",
  listen: `${values.host}:${values.port}`,
  onLine: (name, line) => {
    const text = shown(line);
    if (text) console.log(`[${name}] ${text}`);
  },
});
const shownHost = values.host === "0.0.0.0" ? "localhost" : values.host;
console.log(
  `\nDJ搜索引擎网 (cluster) is up at http://${shownHost}:${values.port}\n` +
    cluster.instances.map((i) => `  instance ${i.name}: ${i.url} (pid ${i.pid})`).join("\n") +
    `\n  nginx: ${cluster.nginx.configFile} (pid ${cluster.nginx.process.pid}), logs in ${path.dirname(cluster.nginx.accessLogFile)}\n` +
    `Ctrl-C stops everything.`,
);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping nginx and the instances…`);
  await cluster.stop();
  console.log("stopped");
  process.exit(0);
};
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
// An instance or nginx that dies on its own is said, not hidden (the rest keeps serving).
for (const instance of cluster.instances) {
  void instance.exited().then(({ code, signal }) => {
    if (!stopping) console.error(`[${instance.name}] exited (${code ?? signal}); nginx sends its requests to the others`);
  });
}
cluster.nginx.process.once("exit", (code) => {
  if (!stopping) {
    console.error(`nginx exited (${code}): stopping`);
    void stop("nginx exit");
  }
});
