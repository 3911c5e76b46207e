import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { QUIET_MS, trackRequestsInFlight } from "./in-flight.js";

describe("requests in flight", () => {
  it("counts a request until its answer is handed over, and is quiet only QUIET_MS after the last arrival", async () => {
    const app = Fastify();
    const requests = trackRequestsInFlight(app);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    app.get("/hold", async () => {
      await gate;
      return { ok: true };
    });
    app.get("/quick", async () => ({ ok: true }));
    await app.ready();
    try {
      const held = app.inject("/hold");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(requests.count()).toBe(1);
      let quietAt = 0;
      const quiet = requests.quiet(() => false).then(() => (quietAt = performance.now()));
      await new Promise((resolve) => setTimeout(resolve, 3 * QUIET_MS));
      expect(quietAt).toBe(0); // still in flight
      const answered = performance.now();
      release();
      await held;
      expect(requests.count()).toBe(0);
      await quiet;
      expect(quietAt - answered).toBeGreaterThanOrEqual(0);
      // A 404 (no route) counts too, and ends.
      expect((await app.inject("/missing")).statusCode).toBe(404);
      expect((await app.inject("/quick")).statusCode).toBe(200);
      expect(requests.count()).toBe(0);
      const since = performance.now();
      await requests.quiet(() => false);
      expect(performance.now() - since).toBeGreaterThanOrEqual(QUIET_MS - 5);
    } finally {
      await app.close();
    }
  });

  it("always waits on a timer, so the event loop polls for new connections before any background work goes on", async () => {
    const app = Fastify();
    const requests = trackRequestsInFlight(app);
    await app.ready();
    await new Promise((resolve) => setTimeout(resolve, 2 * QUIET_MS));
    // Already quiet: still, a timer due now (as a connection's bytes waiting to be read) runs first.
    let polled = false;
    setTimeout(() => (polled = true), 0);
    expect(await requests.quiet(() => false)).toBe(true);
    expect(polled).toBe(true);
    // Stopped: false, at once after the timer.
    expect(await requests.quiet(() => true)).toBe(false);
    await app.close();
  });
});
