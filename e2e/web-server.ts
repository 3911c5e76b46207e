import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import type { Page } from "playwright-core";
import type { ServerBuild } from "react-router";
import { seedDemoCatalogue } from "../server/db/seed/index";
import { prepareDemoMedia } from "../server/demo-media/prepare-demo-media";
import { withBuildLockSync } from "./build-lock";
import { adjustableClock, type AdjustableClock } from "../server/lib/clock";
import { createTestApp, type TestAppOptions } from "../server/testing/test-app";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SERVER_ENTRY = path.join(ROOT, "build", "server", "index.js");

const BUILD_INPUTS = [
  "web",
  "contracts", // the pages import the texts and rules written once there
  "public",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
];

/** The newest modification time in a file or directory tree (build staleness checks). */
export function newestMtime(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(file).map((f) => newestMtime(path.join(file, f))));
}

/**
 * The e2e suite runs against the production build: build it when it is missing or older than
 * its sources (so a stale build never hides a change). Another process may be building already:
 * it is waited for, and the build is looked at again before building.
 */
export function ensureWebBuild() {
  const stale = () => {
    const built = existsSync(SERVER_ENTRY) ? statSync(SERVER_ENTRY).mtimeMs : 0;
    const inputs = BUILD_INPUTS.map((f) => path.join(ROOT, f)).filter((f) => existsSync(f));
    return built < Math.max(...inputs.map(newestMtime));
  };
  if (!stale()) return;
  withBuildLockSync(ROOT, () => {
    if (stale()) execSync("npm run build", { cwd: ROOT, stdio: "inherit" });
  });
}

export async function loadServerBuild(): Promise<ServerBuild> {
  return (await import(SERVER_ENTRY)) as ServerBuild;
}

/**
 * The real app (production web build, security headers, API) on a PGlite test database with a
 * small demo catalogue (categories feed the top navigation), on a random port. Plays are
 * opt-in: most pages need none, and the charts tests want them. `clock` is the server's: a
 * test that moves the browser's clock (page.clock) moves it by as much. `sourceAdapters`
 * (fixture sites, `createSourceAdapters`) are searched beside the catalogue.
 */
export async function startWebServer(
  catalogue: { suites?: number; singles?: number; plays?: number } = {},
  options: Pick<TestAppOptions, "sourceAdapters" | "sourceNetwork"> = {},
): Promise<{ app: FastifyInstance; url: string; clock: AdjustableClock; close(): Promise<void> }> {
  ensureWebBuild();
  const clock = adjustableClock();
  const testApp = await createTestApp("pglite", { web: true, clock, sourceAdapters: options.sourceAdapters, sourceNetwork: options.sourceNetwork });
  const media = await prepareDemoMedia(testApp.dataDir);
  await seedDemoCatalogue(testApp.database, { media, suites: 24, plays: 0, ...catalogue, writes: testApp.app.services.writes });
  // With plays, the charts are built before the first page, as the server does at start-up.
  if (catalogue.plays) await testApp.app.services.charts.rebuildCharts();
  const url = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
  return { app: testApp.app, url, clock, close: testApp.close };
}

/**
 * Console errors, page errors and CSP violations seen by a page. The listener for
 * `securitypolicyviolation` is installed before any page script runs.
 */
export async function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on("console", (msg) => {
    // Playwright's own line when a context blocks service workers, not the page's.
    if (msg.text() === "Service Worker registration blocked by Playwright") return;
    if (msg.type() === "error" || msg.type() === "warning")
      problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return problems;
}

/** Module URLs that only admin routes use (their route modules and chunks no public route shares). */
export function adminOnlyScripts(build: ServerBuild): Set<string> {
  const isAdmin = (id: string) => id === "layouts/admin" || id.startsWith("routes/panda/");
  const routes = Object.values(build.assets.routes).filter((r) => r !== undefined);
  const publicFiles = new Set<string>([build.assets.entry.module, ...build.assets.entry.imports]);
  for (const r of routes.filter((r) => !isAdmin(r.id))) {
    publicFiles.add(r.module);
    for (const f of r.imports ?? []) publicFiles.add(f);
  }
  const admin = new Set<string>();
  for (const r of routes.filter((r) => isAdmin(r.id))) {
    for (const f of [r.module, ...(r.imports ?? [])]) if (!publicFiles.has(f)) admin.add(f);
  }
  return admin;
}
