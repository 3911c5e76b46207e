/**
 * Initial JS of the four public pages, as bench/lighthouse.ts counts it (issue 13: <= 150 KB
 * gzip), without Lighthouse: every script a page loads by itself until the network is idle, each
 * gzipped (level 9), summed. Seconds instead of minutes, and steady (no scores, only bytes).
 *
 *   npx react-router build && npx tsx scripts/build-server.ts
 *   npx tsx bench/initial-js.ts [--url http://127.0.0.1:3000] [--chunks]
 *
 * Without --url it starts the built server as `npm run serve` does, on a fresh demo catalogue
 * in a temporary DATA_DIR. The page is opened as Lighthouse's mobile preset opens it (412 px,
 * touch, the service worker allowed), then at 1366 px; `--chunks` lists each script's size.
 * The service worker's own script (/sw.js, 2.3 KB, registered after `load`) is left out, as
 * Lighthouse's count leaves it out (its Script requests are the page's); it is listed apart.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { launchBrowser } from "../e2e/browser.js";
import { serveCommand } from "../scripts/cluster/stack.js";

const { values } = parseArgs({ options: { url: { type: "string" }, chunks: { type: "boolean", default: false } } });

const PAGES = [
  ["home", "/"],
  ["category", "/sort/manyao"],
  ["suite", "/sutie/1.html"],
  ["login", "/login"],
] as const;

const VIEWPORTS = {
  mobile: { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1366, height: 768 } },
} as const;

async function startServer(): Promise<{ base: string; stop(): Promise<void> }> {
  if (values.url) return { base: values.url.replace(/\/$/, ""), async stop() {} };
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "initial-js-"));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const serve = serveCommand();
  const child = spawn(serve.command, serve.args, {
    env: { ...process.env, ...serve.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", EXTERNAL_SOURCES: "none", LOG_FORMAT: "json", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    const up = await fetch(base + "/").then((r) => r.ok, () => false);
    if (up) break;
    if (i > 600) throw new Error("server did not answer within 2 minutes");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const gzipped = new Map<string, number>();
async function gzipSize(url: string): Promise<number> {
  let size = gzipped.get(url);
  if (size === undefined) {
    size = gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer()), { level: 9 }).length;
    gzipped.set(url, size);
  }
  return size;
}

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const p of PAGES) for (let i = 0; i < 3; i++) await (await fetch(server.base + p[1])).text(); // warm
  const rows: Record<string, string | number>[] = [];
  for (const [name, p] of PAGES) {
    for (const [vp, options] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ ...options, serviceWorkers: "allow", reducedMotion: "no-preference" });
      const page = await context.newPage();
      const scripts = new Set<string>();
      let worker = 0;
      context.on("request", (r) => {
        if (r.resourceType() !== "script") return;
        if (new URL(r.url()).pathname === "/sw.js") worker++;
        else scripts.add(r.url());
      });
      await page.goto(server.base + p, { waitUntil: "networkidle" });
      await page.waitForTimeout(1500); // what starts after idle callbacks and timers
      await context.close();
      let bytes = 0;
      const sizes: [string, number][] = [];
      for (const src of scripts) {
        const size = await gzipSize(src);
        bytes += size;
        sizes.push([new URL(src).pathname, size]);
      }
      rows.push({ page: `${name} ${p}`, viewport: vp, files: scripts.size, "KB gz": Math.round(bytes / 102.4) / 10, "sw.js": worker ? "loaded" : "" });
      if (values.chunks && vp === "mobile") {
        console.log(`\n${name} ${p}`);
        for (const [file, size] of sizes.sort((a, b) => b[1] - a[1])) console.log(`  ${(size / 1024).toFixed(2).padStart(7)} KB  ${file}`);
      }
    }
  }
  console.table(rows);
} finally {
  await browser.close();
  await server.stop();
}
