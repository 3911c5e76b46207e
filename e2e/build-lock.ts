/**
 * One build at a time across the processes of a test run: the unit files on two workers and the
 * two e2e streams may all find a build stale at once, and `react-router build` empties build/
 * (the server's build included) while it runs. The lock is a directory outside build/; a lock
 * older than any build could take was left by a killed run and is taken over.
 */
import { createHash } from "node:crypto";
import { mkdirSync, rmdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const STALE_LOCK_MS = 180_000;
const POLL_MS = 200;

export function buildLockPath(root: string): string {
  return path.join(tmpdir(), `djsearch-build-lock-${createHash("sha1").update(root).digest("hex").slice(0, 8)}`);
}

function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    let age = 0;
    try {
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      return false; // released meanwhile: the next try takes it
    }
    if (age > STALE_LOCK_MS) rmdirSync(lock, { maxRetries: 0 });
    return false;
  }
}

/** Runs `work` holding the lock, waiting for it synchronously (the web build is a sync call). */
export function withBuildLockSync<T>(root: string, work: () => T): T {
  const lock = buildLockPath(root);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!tryLock(lock)) Atomics.wait(pause, 0, 0, POLL_MS);
  try {
    return work();
  } finally {
    rmdirSync(lock);
  }
}

/** The same, waiting without blocking the event loop. */
export async function withBuildLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  const lock = buildLockPath(root);
  while (!tryLock(lock)) await new Promise((r) => setTimeout(r, POLL_MS));
  try {
    return await work();
  } finally {
    rmdirSync(lock);
  }
}
