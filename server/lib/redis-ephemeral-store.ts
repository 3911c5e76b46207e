import type { EphemeralStore } from "./ephemeral-store.js";
import { type RedisLink, redisUnavailable } from "./redis.js";

/** Under the link's prefix, beside the other shared state. */
const NS = "eph:";

/**
 * The ephemeral store of several instances (ADR 0039): the same semantics as the in-process one
 * (ephemeral-store.contract.ts runs against both), kept in Redis with its own expiry, so a
 * captcha loaded from one instance is checked by another and failures count across all.
 *
 * While Redis is away every call rejects at once (or within COMMAND_TIMEOUT_MS) with a 503
 * AppError (服务暂时不可用，请稍后再试): a login or captcha cannot be checked safely without it,
 * and guessing would not be bounded.
 */
export function redisEphemeralStore(link: Pick<RedisLink, "commands">): EphemeralStore {
  const redis = link.commands;
  const run = async <T>(command: () => Promise<T>): Promise<T> => {
    try {
      return await command();
    } catch {
      throw redisUnavailable();
    }
  };
  return {
    get: (key) => run(async () => (await redis.get(NS + key)) ?? undefined),
    set: (key, value, ttlMs) => run(async () => void (await redis.set(NS + key, value, "PX", Math.max(1, Math.ceil(ttlMs))))),
    take: (key) => run(async () => (await redis.getdel(NS + key)) ?? undefined),
    increment: (key, windowMs) =>
      run(async () => {
        // One round trip; PEXPIRE NX starts the window with the first increment only.
        const replies = await redis.multi().incr(NS + key).pexpire(NS + key, Math.max(1, Math.ceil(windowMs)), "NX").exec();
        const [err, count] = replies?.[0] ?? [new Error("transaction discarded"), 0];
        if (err) throw err;
        return Number(count);
      }),
    count: (key) => run(async () => Number((await redis.get(NS + key)) ?? 0)),
    delete: (key) => run(async () => void (await redis.del(NS + key))),
  };
}
