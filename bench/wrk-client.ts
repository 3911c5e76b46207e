/**
 * A load client in C (wrk, Debian's `wrk` package) for pages so cheap that autocannon's one
 * core sets the pace for bare Fastify and the app alike (bench/README.md, issue 23): one wrk
 * thread drives several times autocannon's rate, so the server, not the client, is measured.
 * Same job and result as load-client.ts: paths drawn at random, each request from another client
 * address (X-Forwarded-For, trusted from loopback) without a cookie, the client's CPU time.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { LoadResult, LoadRun } from "./load-client.js";

export const WRK = "/usr/bin/wrk";
export const wrkAvailable = () => existsSync(WRK);

const lua = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** The wrk script: a random path and client address per request; the summary as one JSON line. */
function script(job: LoadRun): string {
  const headers = Object.entries(job.headers ?? {})
    .map(([k, v]) => `headers[${lua(k)}] = ${lua(v)}`)
    .join("\n");
  return `
local paths = { ${job.paths.map(lua).join(", ")} }
math.randomseed(os.time())
request = function()
  local headers = {}
  ${headers}
  headers["X-Forwarded-For"] = "198." .. (18 + math.random(0, 1)) .. "." .. math.random(0, 255) .. "." .. math.random(1, 254)
  return wrk.format("GET", paths[math.random(#paths)], headers)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"total":%d,"p50":%f,"p99":%f,"non2xx":%d,"errors":%d}\\n',
    summary.requests, latency:percentile(50) / 1000, latency:percentile(99) / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
`;
}

/** `bash -c 'wrk …; times'`: the shell's `times` gives the finished child's CPU (user, system). */
function childSeconds(text: string): number {
  const line = text.trim().split("\n").at(-1) ?? "";
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
}

export async function runWithWrk(job: LoadRun): Promise<LoadResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "djwrk-"));
  try {
    const file = path.join(dir, "paths.lua");
    await writeFile(file, script(job));
    const url = new URL(job.url);
    const command = `${WRK} -t1 -c${job.connections} -d${Math.max(1, Math.round(job.duration))}s -s ${file} ${url.origin}; times`;
    const started = performance.now();
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
      execFile("bash", ["-c", command], { maxBuffer: 1 << 20 }, (err, out) => (err ? reject(err) : resolve({ stdout: out }))),
    );
    const wallMs = performance.now() - started;
    const summary = stdout.split("\n").find((l) => l.startsWith("WRK "));
    if (!summary) throw new Error(`wrk printed no summary:\n${stdout}`);
    const r = JSON.parse(summary.slice(4)) as { total: number; p50: number; p99: number; non2xx: number; errors: number };
    return { total: r.total, p50: Math.round(r.p50), p99: Math.round(r.p99), non2xx: r.non2xx, errors: r.errors, clientCpuMs: childSeconds(stdout) * 1000, wallMs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
