import { readdirSync, readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PluginSandbox } from "./host.js";
import { failureOf } from "../testing/call-failure.js";
import type { FetchAnswer, GuestFetchRequest } from "./protocol.js";

/**
 * How long a test waits for a loop to use its CPU limit: the limit counts CPU time, and the
 * sandbox's threads run at nice 10, so beside CPU-bound processes they get a tenth of a core
 * or less (a loop's 500 ms of CPU took over 3 s in a full test run beside a busy-loop).
 */
const CPU_LIMIT_WAIT_MS = 15_000;

/**
 * The sandbox's limits, one misbehaviour at a time (issue 21, point 5). Each hostile plugin
 * would hang the test, exhaust the worker or reach the host without the limit it meets here.
 */

const violations: { instance: string; kind: string }[] = [];
const requests: GuestFetchRequest[] = [];
let sandbox: PluginSandbox;

const plugin = (methods: string) => `module.exports = { platform: "hostile", version: "0.0.1", ${methods} };`;

beforeAll(() => {
  sandbox = new PluginSandbox({
    workers: 2,
    // The limits count CPU time; the call's time limit leaves room for a busy machine, where
    // the sandbox's threads (nice 10) wait for a core: beside CPU-bound processes a loop's
    // 500 ms of CPU took over 4 s of wall time (CPU_LIMIT_WAIT_MS).
    limits: { callCpuMs: 500, loadCpuMs: 300, callTimeoutMs: CPU_LIMIT_WAIT_MS, memoryBytes: 16 * 1024 * 1024 },
    async fetch(_instance, request): Promise<FetchAnswer> {
      requests.push(request);
      return { meta: { status: 200, url: request.url, headers: { "content-type": "text/plain" } }, text: "fine" };
    },
    onViolation: (instance, kind) => violations.push({ instance, kind }),
  });
});
afterAll(() => sandbox.close());

describe("plugin sandbox", () => {
  it("stops an endless loop at its CPU time, keeps the server's event loop free, and the next call meets a fresh engine", async () => {
    await sandbox.load("loop", plugin(`search() { for (;;) {} }, ping() { return "pong"; }`));
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const started = performance.now();
    const failure = await failureOf(sandbox.call("loop", "search", ["x", 1, "music"]));
    delay.disable();
    expect(failure.kind).toBe("cpu");
    // Stopped by its CPU time (500 ms), not by the call's time limit.
    expect(performance.now() - started).toBeLessThan(CPU_LIMIT_WAIT_MS);
    // Run on the server's thread, the loop would have held it for its whole 500 ms.
    expect(delay.percentile(99) / 1e6).toBeLessThan(400);
    expect(violations).toContainEqual({ instance: "loop", kind: "cpu" });
    expect(await sandbox.call("loop", "ping", [])).toBe("pong");
  });

  it("counts the CPU limit of a loop whose caller gave up first (a search's timeout on a busy machine)", async () => {
    await sandbox.load("abandoned", plugin(`search() { for (;;) {} }`));
    const controller = new AbortController();
    const call = sandbox.call("abandoned", "search", ["x", 1, "music"], { signal: controller.signal }).then(
      () => null,
      (err: unknown) => err,
    );
    // Aborted once the worker has begun it, long before its 500 ms of CPU are used.
    await new Promise((r) => setTimeout(r, 150));
    controller.abort(new Error("search timed out"));
    expect(await call).toMatchObject({ message: "search timed out" }); // the caller's reason, not the limit
    // The plugin ran on, hit its CPU time, and that still counts against it (once).
    await expect.poll(() => violations.filter((v) => v.instance === "abandoned"), { timeout: CPU_LIMIT_WAIT_MS }).toEqual([{ instance: "abandoned", kind: "cpu" }]);
  });

  it.runIf(process.platform === "linux")("runs plugins on threads that yield the CPU to the server's thread (nice 10)", async () => {
    await sandbox.load("nice", plugin(`ping() { return "pong"; }`));
    expect(await sandbox.call("nice", "ping", [])).toBe("pong");
    // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value.
    const niceOf = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").replace(/^.*\) /su, "").split(" ")[16]);
    const threads = readdirSync("/proc/self/task").map(niceOf);
    expect(niceOf(String(process.pid))).toBe(0);
    expect(threads.filter((nice) => nice === 10).length).toBeGreaterThanOrEqual(1);
  });

  it("stops a loop hidden in a timer's callback", async () => {
    await sandbox.load("timer-loop", plugin(`search() { setTimeout(() => { for (;;) {} }, 1); return { isEnd: true, data: [] }; }, ping() { return "pong"; }`));
    await sandbox.call("timer-loop", "search", []);
    await expect.poll(() => violations.some((v) => v.instance === "timer-loop" && v.kind === "cpu"), { timeout: CPU_LIMIT_WAIT_MS }).toBe(true);
    expect(await sandbox.call("timer-loop", "ping", [])).toBe("pong");
  });

  it("stops a memory bomb at the plugin's heap limit", async () => {
    // Filling 16 MB and failing there costs QuickJS ~0.3-0.45 s of CPU on a 2-core machine, near
    // the CPU limit of the sandbox above: this one has CPU to spare, so only the heap limit stops it.
    const roomy = new PluginSandbox({ limits: { callCpuMs: 5_000, loadCpuMs: 1_000, callTimeoutMs: 10_000, memoryBytes: 16 * 1024 * 1024 }, fetch: () => Promise.reject(new Error("no network")) });
    try {
      await roomy.load("bomb", plugin(`search() { const b = []; for (;;) b.push([b.length, "y" + b.length, { z: 1 }]); }, ping() { return "pong"; }`));
      const failure = await failureOf(roomy.call("bomb", "search", []));
      expect(failure.kind).toBe("memory");
      expect(await roomy.call("bomb", "ping", [])).toBe("pong");
    } finally {
      await roomy.close();
    }
  });

  it("stops runaway recursion at the stack limit", async () => {
    await sandbox.load("deep", plugin(`search() { const f = (n) => f(n + 1) + 1; return f(0); }`));
    expect((await failureOf(sandbox.call("deep", "search", []))).kind).toBe("memory");
  });

  it("gives no file system, process or native module: require knows only the plugin libraries", async () => {
    await sandbox.load(
      "escape",
      plugin(`
        async search() {
          const tried = {};
          for (const name of ["fs", "node:fs", "child_process", "worker_threads", "module", "net", "http", "vm", "process"]) {
            try { require(name); tried[name] = "loaded"; } catch (e) { tried[name] = String(e.message).slice(0, 30); }
          }
          return tried;
        },
      `),
    );
    const tried = (await sandbox.call("escape", "search", [])) as Record<string, string>;
    for (const outcome of Object.values(tried)) expect(outcome).toMatch(/^Cannot find module/u);
  });

  it("cannot reach the host's process or globals through prototype tricks", async () => {
    await sandbox.load(
      "proto",
      plugin(`
        async search() {
          const probes = {
            ctorProcess: (() => { try { return typeof ({}).constructor.constructor("return typeof process === 'undefined' ? undefined : process")(); } catch (e) { return "threw"; } })(),
            asyncCtor: await (async () => { try { return typeof (await (async () => {}).constructor("return globalThis.process")()); } catch (e) { return "threw"; } })(),
            globalKeys: Object.getOwnPropertyNames(globalThis).filter((k) => /^(process|__host|require_|module|Deno|Bun|global)$/.test(k)),
            hostGone: typeof globalThis.__host,
            fnThis: typeof Function("return this")().process,
            bufferProto: typeof Buffer.prototype.constructor.constructor("return this")().process,
            errorStack: (() => { try { null.x; } catch (e) { return String(e.stack).includes("/work/") || String(e.stack).includes("node:"); } })(),
          };
          return probes;
        },
      `),
    );
    const probes = (await sandbox.call("proto", "search", [])) as Record<string, unknown>;
    expect(probes).toEqual({ ctorProcess: "undefined", asyncCtor: "undefined", globalKeys: [], hostGone: "undefined", fnThis: "undefined", bufferProto: "undefined", errorStack: false });
  });

  it("turns thrown non-errors into failures of the call", async () => {
    await sandbox.load(
      "throwers",
      plugin(`
        str() { throw "just a string"; },
        nul() { throw null; },
        obj() { throw { code: 42 }; },
        nasty() { throw { get message() { throw new Error("no"); }, toString() { throw new Error("no"); }, toJSON() { throw new Error("no"); } }; },
        rejects() { return Promise.reject(undefined); },
        cyclic() { const a = {}; a.self = a; return a; },
      `),
    );
    expect(await failureOf(sandbox.call("throwers", "str", []))).toMatchObject({ kind: "plugin", message: "just a string" });
    expect(await failureOf(sandbox.call("throwers", "nul", []))).toMatchObject({ kind: "plugin", message: "null" });
    expect(await failureOf(sandbox.call("throwers", "obj", []))).toMatchObject({ kind: "plugin", message: '{"code":42}' });
    expect((await failureOf(sandbox.call("throwers", "nasty", []))).kind).toBe("plugin");
    expect((await failureOf(sandbox.call("throwers", "rejects", []))).kind).toBe("plugin");
    expect((await failureOf(sandbox.call("throwers", "cyclic", []))).kind).toBe("plugin");
    expect((await failureOf(sandbox.call("throwers", "absent", []))).kind).toBe("missing");
  });

  it("gives up on a call that never resolves, and the other plugins go on", async () => {
    await sandbox.load("never", plugin(`search() { return new Promise(() => {}); }`));
    await sandbox.load("neighbour", plugin(`search() { return "here"; }`));
    const started = performance.now();
    const failure = await failureOf(sandbox.call("never", "search", [], { timeoutMs: 400 }));
    expect(failure.kind).toBe("timeout");
    // Given up at the call's own 400 ms, not the sandbox's default.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(violations).toContainEqual({ instance: "never", kind: "timeout" });
    expect(await sandbox.call("neighbour", "search", [])).toBe("here");
  });

  it("replaces a worker stuck inside one long built-in call, and its plugins load again", async () => {
    // One C-level call (no interrupt checks inside) can outlast the CPU limit: the watchdog acts.
    await sandbox.load("stuck", plugin(`search() { const a = []; for (;;) a.push(new Array(100000).fill(a.length)); }, ping() { return "pong"; }`));
    const failure = await failureOf(sandbox.call("stuck", "search", [], { timeoutMs: 300 }));
    expect(failure.kind).toBe("timeout");
    expect(await sandbox.call("stuck", "ping", [])).toBe("pong");
  });

  it("refuses code that does not load, naming why", async () => {
    expect((await failureOf(sandbox.load("broken", "module.exports = {"))).kind).toBe("plugin");
    expect((await failureOf(sandbox.load("load-loop", "for(;;){}"))).kind).toBe("cpu");
  });

  it("sends a plugin's requests only to the host's fetch", async () => {
    await sandbox.load("net", plugin(`async search() { const r = await require("axios").get("http://example.com/x", { params: { q: "夜店" } }); return r.data; }`));
    expect(await sandbox.call("net", "search", [])).toBe("fine");
    expect(requests.at(-1)).toMatchObject({ url: "http://example.com/x?q=%E5%A4%9C%E5%BA%97", method: "GET" });
  });

  it("keeps a loaded plugin's QuickJS heap small", async () => {
    await sandbox.load("libs", plugin(`search() { require("crypto-js"); require("cheerio"); require("axios"); require("dayjs"); require("qs"); require("he"); require("big-integer"); return 1; }`));
    await sandbox.call("libs", "search", []);
    const memory = await sandbox.memory();
    expect(memory.libs).toBeGreaterThan(100_000);
    expect(memory.libs).toBeLessThan(32 * 1024 * 1024);
  });
});
