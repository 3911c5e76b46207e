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

describe("plugins' engines", () => {
  it("share QuickJS's compiled code, never a memory: each has a heap of its own", async () => {
    const hooks = { fetch: () => Promise.reject(new Error("no network here")), log: () => {} };
    const plugin = `module.exports = { platform: "mem", version: "1.0.0", search() { globalThis.kept = "x".repeat(20 * 1024 * 1024); return { isEnd: true, data: [] }; } };`;
    const [a, b] = await Promise.all([1, 2].map(async () => (await PluginInstance.create(plugin, {}, limits, hooks)).instance));
    // The emscripten module behind each engine: its memory is the plugin's whole heap.
    const heapOf = (instance: PluginInstance) => (instance["module"] as unknown as { module: { HEAPU8: Uint8Array } }).module.HEAPU8;
    try {
      expect(heapOf(a!).buffer).not.toBe(heapOf(b!).buffer);
      const before = heapOf(b!).byteLength;
      await a!.call("search", ["夜曲", 1, "music"]);
      // One plugin's heap growing leaves the other's as it was.
      expect(heapOf(a!).byteLength).toBeGreaterThan(before);
      expect(heapOf(b!).byteLength).toBe(before);
    } finally {
      a!.dispose();
      b!.dispose();
    }
  });
});
