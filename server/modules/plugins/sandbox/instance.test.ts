import { describe, expect, it } from "vitest";
import { PluginInstance, SandboxFailure } from "./instance.js";
import { DEFAULT_SANDBOX_LIMITS } from "./protocol.js";

/**
 * A plugin's budget is CPU time, not wall time: on a busy machine the sandbox's threads (nice 10)
 * wait for a core, and a healthy call that waited must not be cut short as if it had looped.
 */

/** Holds this thread without using the CPU, as a thread waiting for a core does. */
const waitOffCpu = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const limits = { ...DEFAULT_SANDBOX_LIMITS, callCpuMs: 300 };
const code = `module.exports = { platform: "waits", version: "1.0.0",
  search() { console.log("one"); console.log("two"); var n = 0; for (var i = 0; i < 300000; i++) n += i; return { isEnd: true, data: [{ id: "1", title: "夜曲" }] }; },
  spin() { for (;;) {} } };`;

describe("a plugin's CPU time", () => {
  it("does not count the time its thread waited off the CPU, and still stops a loop", async () => {
    let waited = 0;
    const { instance } = await PluginInstance.create(code, {}, limits, {
      fetch: () => Promise.reject(new Error("no network here")),
      log: () => {
        // Each log line holds the thread 250 ms inside the call's one slice: 500 ms of wall time
        // against a 300 ms budget, with next to no CPU used. The loop after them asks the interrupt handler again and again.
        waitOffCpu(250);
        waited += 250;
      },
    });
    try {
      const started = performance.now();
      expect(await instance.call("search", ["夜曲", 1, "music"])).toEqual({ isEnd: true, data: [{ id: "1", title: "夜曲" }] });
      expect(waited).toBe(500);
      expect(performance.now() - started).toBeGreaterThanOrEqual(500);

      const failure = await instance.call("spin", []).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(SandboxFailure);
      expect((failure as SandboxFailure).kind).toBe("cpu");
    } finally {
      instance.dispose();
    }
  });
});
