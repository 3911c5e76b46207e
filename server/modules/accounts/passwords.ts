import os from "node:os";
import { hash, verify } from "@node-rs/argon2";

/**
 * Passwords are argon2id (OWASP's minimum: 19 MiB, 2 passes). @node-rs/argon2's async calls
 * run on libuv's thread pool, so hashing never blocks the event loop that serves pages.
 */
const ARGON2_OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashings at once: one per core, and never all of libuv's thread pool (4 threads unless
 * UV_THREADPOOL_SIZE says otherwise), which also compresses answers and reads files: a burst of
 * logins queues here instead of holding up those. One hashing is ~12-15 ms of CPU; 20 logins a
 * second take about a third of a core. (One at a time on this 2-core machine made logins queue
 * for up to 2 s whenever other work slowed the hasher: bench/README.md, issue 10.)
 */
const THREAD_POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;
export const MAX_CONCURRENT_HASHES = Math.max(1, Math.min(os.availableParallelism(), THREAD_POOL_SIZE - 1));

let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next in line (running stays the same), or free it.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export const hashPassword = (password: string): Promise<string> => limited(() => hash(password, ARGON2_OPTIONS));

/** False for a wrong password and for a stored hash that is not argon2 at all. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await limited(() => verify(storedHash, password));
  } catch {
    return false;
  }
}
