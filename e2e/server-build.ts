/**
 * The spawned servers of the e2e tests (single sites, killable sites, the cluster) run the
 * built server, build/node/main.js, as `npm run serve` does: rebuilt here when it is older
 * than the server's sources, so a test never meets a stale build. Through tsx every start paid
 * ~4-5 s of transpiling on a busy 2-core machine, and the crash tests start the site ~40 times.
 */
import { mkdirSync, rmdirSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildServer } from "../scripts/build-server.js";
import { SERVER_BUILD } from "../scripts/cluster/stack.js";
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

/** Two e2e projects run side by side: one of them builds while the other waits for it. */
async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  // Outside build/: the web build empties that directory.
  const lock = path.join(tmpdir(), `djsearch-build-lock-${createHash("sha1").update(ROOT).digest("hex").slice(0, 8)}`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than a build could take was left by a killed run.
      if (Date.now() - mtimeOf(lock) > 120_000) rmdirSync(lock);
      else await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmdirSync(lock);
  }
}

/** Builds the web app and the server when older than their sources (once per test file). */
export function ensureServerBuild(): Promise<void> {
  checked ??= (async () => {
    const stale = () => mtimeOf(SERVER_BUILD) < Math.max(...["server", "contracts"].map((d) => newestMtime(path.join(ROOT, d))));
    await withBuildLock(async () => {
      ensureWebBuild();
      if (stale()) await buildServer();
    });
  })();
  return checked;
}
