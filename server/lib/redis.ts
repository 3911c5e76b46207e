import { randomBytes } from "node:crypto";
import { Redis, type RedisOptions } from "ioredis";
import { serverMessages } from "@contracts/messages";
import { AppError } from "../errors.js";

/**
 * The app's link to Redis when REDIS_URL is set (ADR 0039): one connection for commands and one
 * for pub/sub (a subscribed connection can send nothing else), both under one key prefix.
 *
 * Commands fail fast while Redis is away: no offline queue (a command sent while disconnected
 * fails at once) and a bounded wait for an answer on a connection that hangs. The connections
 * reconnect on their own, every 0.2 s to 2 s, for as long as the app runs.
 */
export interface RedisLink {
  /** Prepended to every key (ioredis `keyPrefix`) and, by `channel`, to every channel. */
  readonly prefix: string;
  /** This process among the instances (pub/sub acknowledgements are addressed to it). */
  readonly instanceId: string;
  /** Keys are prefixed by the client; commands reject within COMMAND_TIMEOUT_MS. */
  readonly commands: Redis;
  /** The subscribed connection (channels are not prefixed by ioredis: use `channel`). */
  readonly subscriber: Redis;
  channel(name: string): string;
  /** Resolves once both connections are up, or false after `timeoutMs` (the app starts anyway). */
  connect(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Longest a command waits for its answer before it fails (a half-dead connection). */
export const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;

/** The error a request gets when what it needs lives in Redis and Redis is away. */
export const redisUnavailable = () => new AppError(503, serverMessages.serviceUnavailable);

export function createRedisLink(url: string, prefix: string, onError?: (err: Error) => void): RedisLink {
  const options: RedisOptions = {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    // A reply never comes after a reconnect: reject rather than resend.
    maxRetriesPerRequest: 0,
  };
  const commands = new Redis(url, { ...options, keyPrefix: prefix, enableOfflineQueue: false, commandTimeout: COMMAND_TIMEOUT_MS });
  // SUBSCRIBE sent before the first connection waits for it; ioredis resubscribes after a reconnect.
  const subscriber = new Redis(url, { ...options, autoResubscribe: true, maxRetriesPerRequest: null });
  // Without a listener ioredis prints every failed reconnect; the owner logs them once per change.
  let lastError = "";
  const reportError = (err: Error) => {
    if (err.message === lastError) return;
    lastError = err.message;
    onError?.(err);
  };
  for (const client of [commands, subscriber]) {
    client.on("error", reportError);
    client.on("ready", () => (lastError = ""));
  }
  let closed = false;
  return {
    prefix,
    instanceId: randomBytes(6).toString("hex"),
    commands,
    subscriber,
    channel: (name) => `${prefix}${name}`,
    async connect(timeoutMs = 5_000) {
      const up = Promise.all([commands.connect(), subscriber.connect()]).then(() => true);
      // The clients keep retrying after a failed first attempt: the app starts, degraded.
      up.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      try {
        return await Promise.race([up.catch(() => false), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      // QUIT when connected; a link that is away is simply dropped.
      await Promise.all(
        [commands, subscriber].map((c) => (c.status === "ready" ? c.quit().then(() => undefined, () => c.disconnect()) : c.disconnect())),
      );
    },
  };
}
