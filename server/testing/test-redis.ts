import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { createRedisLink, type RedisLink } from "../lib/redis.js";

/** The Redis of the tests (TEST_REDIS_URL), or undefined: Redis tests are skipped without it. */
export const testRedisUrl = (): string | undefined => process.env.TEST_REDIS_URL || undefined;

/** A prefix no other test (or helper sharing the machine's Redis) uses. */
export const uniqueRedisPrefix = (): string => `djtest:${randomBytes(5).toString("hex")}:`;

/** Deletes every key under `prefix` (never FLUSHDB: the Redis is shared). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

/** A connected link under a fresh prefix; `close` deletes its keys. */
export async function createTestRedisLink(url: string, prefix = uniqueRedisPrefix()): Promise<RedisLink & { dispose(): Promise<void> }> {
  const link = createRedisLink(url, prefix);
  if (!(await link.connect())) throw new Error(`Redis at ${url} did not answer`);
  return Object.assign(link, {
    async dispose() {
      await link.close();
      await deleteRedisKeys(url, prefix);
    },
  });
}
