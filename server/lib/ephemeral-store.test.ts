import { afterAll, describe, expect, it } from "vitest";
import { createTestRedisLink, testRedisUrl } from "../testing/test-redis.js";
import { adjustableClock } from "./clock.js";
import { type EphemeralStore, memoryEphemeralStore } from "./ephemeral-store.js";
import { redisEphemeralStore } from "./redis-ephemeral-store.js";

/** A store and a way to let time pass for it (the memory store's clock moves; Redis's is real). */
interface Subject {
  make(): EphemeralStore;
  pass(ms: number): Promise<void>;
}

const links: { dispose(): Promise<void> }[] = [];
afterAll(async () => {
  for (const link of links) await link.dispose();
});

const subjects: [string, () => Promise<Subject>][] = [
  [
    "memory",
    async () => {
      const clock = adjustableClock();
      return { make: () => memoryEphemeralStore({ clock }), pass: async (ms) => void clock.advance(ms) };
    },
  ],
];
const redisUrl = testRedisUrl();
subjects.push([
  "redis",
  async () => {
    const link = await createTestRedisLink(redisUrl!);
    links.push(link);
    return { make: () => redisEphemeralStore(link), pass: (ms) => new Promise((r) => setTimeout(r, ms + 30)) };
  },
]);

// Windows are short: the Redis store waits them out for real.
const TTL = 300;

describe.each(subjects)("ephemeral store (%s): the semantics both implementations share", (name, subject) => {
  it.skipIf(name === "redis" && !redisUrl)("keeps a value until its time is up", async () => {
    const { make, pass } = await subject();
    const store = make();
    await store.set("captcha:a", "x7Kp", TTL);
    expect(await store.get("captcha:a")).toBe("x7Kp");
    await pass(TTL);
    expect(await store.get("captcha:a")).toBeUndefined();
  });

  it.skipIf(name === "redis" && !redisUrl)("take gives a single-use value once", async () => {
    const store = (await subject()).make();
    await store.set("k", "v", 60_000);
    expect(await Promise.all([store.take("k"), store.take("k")])).toEqual(["v", undefined]);
    expect(await store.take("k")).toBeUndefined();
  });

  it.skipIf(name === "redis" && !redisUrl)("counts in a fixed window that later increments do not extend", async () => {
    const { make, pass } = await subject();
    const store = make();
    expect(await store.increment("fail:ip", TTL)).toBe(1);
    await pass(TTL / 2);
    expect(await store.increment("fail:ip", TTL)).toBe(2);
    expect(await store.count("fail:ip")).toBe(2);
    await pass(TTL / 2);
    expect(await store.count("fail:ip")).toBe(0);
    expect(await store.increment("fail:ip", TTL)).toBe(1);
    await store.delete("fail:ip");
    expect(await store.count("fail:ip")).toBe(0);
    expect(await store.get("never")).toBeUndefined();
  });
});

describe("memoryEphemeralStore", () => {
  it("stays within its entry bound, dropping the oldest first", async () => {
    const store = memoryEphemeralStore({ maxEntries: 3 });
    for (const k of ["a", "b", "c", "d"]) await store.set(k, k, 60_000);
    expect(await store.get("a")).toBeUndefined();
    expect(await store.get("d")).toBe("d");
  });

  it("stays within its bytes, dropping the oldest first, and gives back what expired, was taken or deleted", async () => {
    let now = 0;
    const store = memoryEphemeralStore({ clock: () => new Date(now), maxBytes: 10_000 });
    for (let i = 0; i < 1_000; i++) await store.set(`captcha:${i}`, "x".repeat(40), 60_000);
    expect(store.bytes).toBeLessThanOrEqual(10_000);
    expect(await store.get("captcha:0")).toBeUndefined();
    expect(await store.get("captcha:999")).toBe("x".repeat(40));
    const held = store.bytes;
    await store.take("captcha:999");
    await store.delete("captcha:998");
    expect(store.bytes).toBeLessThan(held);
    await store.increment("fails", 1_000);
    now = 120_000; // all expired: a read drops each, a sweep every 1000 writes drops the rest
    for (let i = 0; i < 1_000; i++) await store.set(`n:${i}`, "", 1);
    now = 240_000;
    for (let i = 0; i < 1_000; i++) await store.set(`m:${i}`, "", 1_000_000);
    expect(store.bytes).toBeLessThanOrEqual(10_000);
    expect(await store.get("captcha:997")).toBeUndefined();
  });
});

describe.skipIf(!redisUrl)("redisEphemeralStore", () => {
  it("keeps its keys under the link's prefix, and answers 503 at once when Redis is away", async () => {
    const link = await createTestRedisLink(redisUrl!);
    links.push(link);
    const store = redisEphemeralStore(link);
    await store.set("captcha:z", "abcd", 60_000);
    expect(await link.commands.pttl("eph:captcha:z")).toBeGreaterThan(59_000);
    link.commands.disconnect();
    const started = Date.now();
    await expect(store.get("captcha:z")).rejects.toMatchObject({ status: 503, message: "服务暂时不可用，请稍后再试" });
    expect(Date.now() - started).toBeLessThan(500);
  });
});
