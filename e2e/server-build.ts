/**
 * The spawned servers of the e2e tests (single sites, killable sites, the cluster) run the
 * built server, build/node/main.js, as `npm run serve` does: rebuilt here when it is older
 * than the server's sources, so a test never meets a stale build. Through tsx every start paid
 * ~4-5 s of transpiling on a busy 2-core machine, and the crash tests start the site ~40 times.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { buildServer } from "../scripts/build-server.js";
import { SERVER_BUILD } from "../scripts/cluster/stack.js";
import { withBuildLock } from "./build-lock.js";
import { ensureWebBuild, newestMtime, ROOT } from "./web-server.js";

export { SERVER_BUILD };

const mtimeOf = (file: string): number => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

let checked: Promise<void> | undefined;

/** Builds the web app and the server when older than their sources (once per test file). */
export function ensureServerBuild(): Promise<void> {
  checked ??= (async () => {
    const stale = () => mtimeOf(SERVER_BUILD) < Math.max(...["server", "contracts"].map((d) => newestMtime(path.join(ROOT, d))));
    ensureWebBuild(); // takes the lock itself when it builds
    if (stale()) await withBuildLock(ROOT, async () => (stale() ? buildServer() : undefined));
  })();
  return checked;
}
