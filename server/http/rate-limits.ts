import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import { serverMessages } from "@contracts/messages";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import type { RedisLink } from "../lib/redis.js";
import { NewVisitorLimit } from "./new-visitor-limit.js";

/**
 * Per-IP limits (IPv6 by /64, the address a mobile subscriber gets; the client's address
 * behind TRUST_PROXY). Numbers and why: docs/decisions/0014-hostile-input.md. Counted in
 * process, or in Redis with REDIS_URL so every instance counts the same requests (ADR 0039).
 */
export const RATE_LIMITS = {
  /** GET /api/forntend/indexsearch: a person submits a few searches a minute. */
  search: { max: 120, timeWindow: 60_000 },
  /** POST /api/forntend/play/start: one per playback a listener starts. */
  playStart: { max: 60, timeWindow: 60_000 },
  /** GET /api/forntend/source-play: a media element's Range requests of a few plays (seeking asks again). */
  sourcePlay: { max: 120, timeWindow: 60_000 },
  /** GET /api/forntend/source-play/segment: an HLS segment every few seconds, faster while buffering ahead. */
  sourceSegment: { max: 600, timeWindow: 60_000 },
  /** POST /api/forntend/play: one per 30 s of listening at most, per listener. */
  playReport: { max: 30, timeWindow: 60_000 },
  /** GET /captcha.html: each image is a stored answer; a person needs a few a minute. */
  captcha: { max: 60, timeWindow: 60_000 },
  /**
   * The public email-code calls (send, check, does this address exist): on top of the services'
   * per-address and per-code rules (ADR 0018), a wall for address probing and code guessing.
   */
  emailCodes: { max: 30, timeWindow: 60_000 },
  /** POST /api/user/reset-password: a code has 5 tries; this bounds guessing across codes. */
  resetPassword: { max: 20, timeWindow: 60_000 },
  /** New visitor ids issued to one IP: past this, a cookie-less request is served but not counted. */
  newVisitors: { max: 120, timeWindow: 10 * 60_000 },
} as const;

/** Addresses remembered per limit; the least recently seen go first. */
const REMEMBERED_IPS = 10_000;

/** Route `config.rateLimit` for one of RATE_LIMITS. */
export const rateLimitConfig = (name: keyof typeof RATE_LIMITS) => ({ ...RATE_LIMITS[name], cache: REMEMBERED_IPS });

declare module "fastify" {
  interface FastifyInstance {
    /** Counts a new visitor id for the request's IP; false once the IP is past its limit. */
    newVisitorAllowed(request: FastifyRequest): Promise<boolean>;
    /** The same count for a client address, synchronously: only when the counts live in this process (no Redis). */
    newVisitorAllowedNow?: (address: string) => boolean;
  }
}

/**
 * Registers @fastify/rate-limit (limits only where a route's config asks for one), answered
 * 429 with the envelope and 请求过于频繁，请稍后再试, and the new-visitor limit. Register before
 * the routes.
 *
 * With `redis` the counts live in Redis under `rl:` (the plugin adds the route's method and
 * path, one namespace per limit). While Redis is away the limits let requests through (fail
 * open, ADR 0039): they guard capacity, and refusing every search for want of a counter would
 * take the site down with Redis; what must not be guessed (logins, captchas) answers 503 instead.
 */
export async function registerRateLimits(app: FastifyInstance, redis?: Pick<RedisLink, "commands">) {
  await app.register(rateLimit, {
    global: false,
    cache: REMEMBERED_IPS,
    ...(redis ? { redis: redis.commands, nameSpace: "rl:", skipOnError: true } : {}),
    errorResponseBuilder: () => new AppError(429, serverMessages.tooManyRequests),
  });
  if (!redis) {
    // In process: one synchronous counter that the kept-page lane (ADR 0069) and Fastify's path share.
    const limit = new NewVisitorLimit(RATE_LIMITS.newVisitors.max, RATE_LIMITS.newVisitors.timeWindow, REMEMBERED_IPS);
    const allowedNow = (address: string) => limit.take(address);
    app.decorate("newVisitorAllowedNow", allowedNow);
    app.decorate("newVisitorAllowed", async (request: FastifyRequest) => allowedNow(request.ip));
    return;
  }
  // Its own key: a limit made outside a route would otherwise share the plugin's default name.
  const newVisitors = app.createRateLimit({ ...rateLimitConfig("newVisitors"), keyGenerator: (request) => `new-visitor:${normalizeIP(request.ip)}` });
  app.decorate("newVisitorAllowed", async (request: FastifyRequest) => {
    const counted = await newVisitors(request);
    return counted.isAllowed || !counted.isExceeded;
  });
}
