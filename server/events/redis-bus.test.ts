import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createTestRedisLink, testRedisUrl, uniqueRedisPrefix } from "../testing/test-redis.js";
import type { CatalogueEvent } from "./catalogue-events.js";
import { type RelayedBus, redisRelayedBus } from "./redis-bus.js";

const redisUrl = testRedisUrl();

describe.skipIf(!redisUrl)("redisRelayedBus", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /** `n` instances' buses on one prefix, each with its own connections. */
  async function instances(n: number) {
    const prefix = uniqueRedisPrefix();
    const made: { bus: RelayedBus; seen: CatalogueEvent[]; resyncs: number; link: Awaited<ReturnType<typeof createTestRedisLink>> }[] = [];
    for (let i = 0; i < n; i++) {
      const link = await createTestRedisLink(redisUrl!, prefix);
      const entry = { bus: undefined as unknown as RelayedBus, seen: [] as CatalogueEvent[], resyncs: 0, link };
      entry.bus = redisRelayedBus({ link, onResync: () => entry.resyncs++ });
      entry.bus.subscribe((e) => entry.seen.push(e));
      await entry.bus.start();
      cleanup.push(async () => {
        entry.bus.close();
        await link.dispose();
      });
      made.push(entry);
    }
    return made;
  }

  it("runs local listeners at once and the other instances' before publish settles", async () => {
    const [a, b, c] = await instances(3);
    const publishing = a!.bus.publish({ type: "categories", action: "updated", ids: [7] });
    expect(a!.seen).toEqual([{ type: "categories", action: "updated", ids: [7] }]);
    expect(b!.seen).toEqual([]);
    await publishing;
    expect(b!.seen).toEqual([{ type: "categories", action: "updated", ids: [7] }]);
    expect(c!.seen).toEqual([{ type: "categories", action: "updated", ids: [7] }]);
    expect(a!.seen).toHaveLength(1); // its own relayed copy is not run again
  });

  it("never waits out the bound when every instance answers, however fast its own copy comes back", async () => {
    const prefix = uniqueRedisPrefix();
    const warnings: string[] = [];
    const logger = { warn: (_: object, msg: string) => warnings.push(msg), info: () => {} };
    const buses: RelayedBus[] = [];
    for (let i = 0; i < 2; i++) {
      const link = await createTestRedisLink(redisUrl!, prefix);
      // PUBLISH's answer comes late: the acknowledgements are all in before it.
      const commands = new Proxy(link.commands, {
        get: (target, prop) =>
          prop === "publish"
            ? async (...args: [string, string]) => {
                const receivers = await target.publish(...args);
                await sleep(30);
                return receivers;
              }
            : (Reflect.get(target, prop) as unknown) instanceof Function
              ? (Reflect.get(target, prop) as (...a: unknown[]) => unknown).bind(target)
              : Reflect.get(target, prop),
      });
      const bus = redisRelayedBus({ link: { ...link, channel: link.channel, commands }, onResync: () => {}, logger, ackTimeoutMs: 5_000 });
      await bus.start();
      buses.push(bus);
      cleanup.push(async () => {
        bus.close();
        await link.dispose();
      });
    }
    const started = Date.now();
    for (let i = 0; i < 20; i++) await buses[i % 2]!.publish({ type: "charts" });
    expect(warnings).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("keeps an event it cannot relay and sends it when Redis returns; a broken subscription drops every kept answer", async () => {
    const [a, b] = await instances(2);
    a!.link.commands.disconnect();
    const started = Date.now();
    await a!.bus.publish({ type: "blocks", action: "updated", ids: [1] });
    expect(Date.now() - started).toBeLessThan(200);
    expect(a!.seen).toHaveLength(1);
    await sleep(100);
    expect(b!.seen).toEqual([]);
    await a!.link.commands.connect();
    for (let i = 0; i < 50 && b!.seen.length === 0; i++) await sleep(20);
    expect(b!.seen).toEqual([{ type: "blocks", action: "updated", ids: [1] }]);

    expect(b!.resyncs).toBe(0);
    b!.link.subscriber.disconnect(true);
    for (let i = 0; i < 100 && b!.resyncs === 0; i++) await sleep(20);
    expect(b!.resyncs).toBe(1);
    // Subscribed again: events arrive.
    await a!.bus.publish({ type: "charts" });
    expect(b!.seen.at(-1)).toEqual({ type: "charts" });
  });

  it("waits a bounded time for an instance that does not acknowledge", async () => {
    const [a] = await instances(1);
    // A subscriber that receives events and never answers (a stuck instance).
    const mute = await createTestRedisLink(redisUrl!);
    cleanup.push(() => mute.dispose());
    await mute.subscriber.subscribe(a!.link.channel("bus:events"));
    const started = Date.now();
    await a!.bus.publish({ type: "charts" });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(2_000);
  });
});
