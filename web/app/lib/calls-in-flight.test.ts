import { describe, expect, it } from "vitest";
import { callsInFlight } from "./calls-in-flight";

const later = <T>(ms: number, value: T, fail = false) =>
  new Promise<T>((resolve, reject) => setTimeout(() => (fail ? reject(new Error("down")) : resolve(value)), ms));

describe("calls in flight (what a logout waits for)", () => {
  it("resolves at once when nothing is in flight", async () => {
    const calls = callsInFlight();
    const started = performance.now();
    await calls.settled(1000);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("waits for every call sent before, answered or failed, and returns each call unchanged", async () => {
    const calls = callsInFlight();
    const order: string[] = [];
    const a = calls.track(later(30, "a")).then((v) => order.push(v));
    const b = calls.track(later(60, "b", true)).catch(() => order.push("b failed"));
    await calls.settled(1000);
    order.push("settled");
    await Promise.all([a, b]);
    expect(order).toEqual(["a", "b failed", "settled"]);
  });

  it("stops waiting after maxMs for a call that hangs, and forgets calls once they settle", async () => {
    const calls = callsInFlight();
    calls.track(new Promise(() => {}));
    const started = performance.now();
    await calls.settled(80);
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);

    const other = callsInFlight();
    await other.track(later(10, 1));
    const again = performance.now();
    await other.settled(1000);
    expect(performance.now() - again).toBeLessThan(50);
  });
});
