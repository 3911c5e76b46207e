import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { createTestRedisLink, testRedisUrl, uniqueRedisPrefix } from "../../testing/test-redis.js";
import { healthBoard } from "./health.js";
import { sharedBreakers } from "./shared-breakers.js";

const redisUrl = testRedisUrl();

describe.skipIf(!redisUrl)("sharedBreakers", () => {
  const disposals: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const dispose of disposals) await dispose();
  });

  /** One instance's board, its breakers shared under `prefix`; its clock is `clock.now`. */
  async function instance(prefix: string, clock: { now: number }) {
    const link = await createTestRedisLink(redisUrl!, prefix);
    const shared = sharedBreakers(link);
    const board = healthBoard({ failureThreshold: 2, coolDownMs: 30_000, now: () => clock.now, onBreaker: shared.publish });
    shared.attach(board);
    disposals.push(async () => {
      shared.close();
      await link.dispose();
    });
    await link.subscriber.subscribe(link.channel("health:breakers")); // settled before the test goes on
    return board;
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await sleep(20);
    return check();
  };

  it("a breaker opened on one instance is open on the other; its probe's success closes both", async () => {
    const prefix = uniqueRedisPrefix();
    const clock = { now: 1_000_000 };
    const a = await instance(prefix, clock);
    const b = await instance(prefix, clock);
    const onA = a.track("djuu", "DJ嗨嗨");
    const onB = b.track("djuu", "DJ嗨嗨");
    onA.failed(50, { kind: "timeout", message: "slow" });
    onA.failed(50, { kind: "timeout", message: "slow" });
    expect(onA.snapshot().state).toBe("open");
    expect(await until(() => onB.snapshot().state === "open")).toBe(true);
    expect(onB.admit()).toBe(false); // B never called the dead site itself
    expect(onB.snapshot().retryAt).toBe(onA.snapshot().retryAt);

    clock.now += 30_000;
    expect(onB.admit()).toBe(true); // B's probe
    onB.succeeded(40);
    expect(await until(() => onA.snapshot().state === "closed")).toBe(true);
    expect(onA.admit()).toBe(true);
  });
});
