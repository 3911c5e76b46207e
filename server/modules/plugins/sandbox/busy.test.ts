import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PluginSandbox } from "./host.js";
import { failureOf } from "../testing/call-failure.js";

/**
 * A call whose time runs out while the worker is busy with others never began: it fails as
 * "busy" (our queue, not the plugin's fault), counts as no violation, and the worker drops it
 * rather than running it late.
 */

const violations: string[] = [];
let sandbox: PluginSandbox;

beforeAll(() => {
  sandbox = new PluginSandbox({
    workers: 1,
    limits: { callCpuMs: 3_000, callTimeoutMs: 8_000 },
    fetch: () => Promise.resolve({ meta: { error: "no network here", code: "ERR_CANCELED" } }),
    onViolation: (instance, kind) => violations.push(`${instance}:${kind}`),
  });
});
afterAll(() => sandbox.close());

// `spin` holds the worker's thread for a while (within its CPU limit); `mark` leaves a trace.
const code = `let marks = 0;
module.exports = {
  platform: "busy", version: "0.0.1",
  spin(ms) { const end = Date.now() + ms; while (Date.now() < end) {} return "spun"; },
  mark() { marks += 1; return marks; },
  marks() { return marks; },
};`;

describe("a busy sandbox", () => {
  it("fails a call it never began as busy, drops it, and reports no violation", async () => {
    await sandbox.load("busy", code);
    const spinning = sandbox.call("busy", "spin", [800]);
    // Sent while the worker spins: its 100 ms pass before the worker reads it.
    const timedOut = failureOf(sandbox.call("busy", "mark", [], { timeoutMs: 100 }));
    const controller = new AbortController();
    const aborted = failureOf(sandbox.call("busy", "mark", [], { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("search gave up")), 100);

    expect((await timedOut).kind).toBe("busy");
    expect((await aborted).kind).toBe("busy");
    expect(await spinning).toBe("spun");
    // Neither given-up call ran once the worker was free.
    expect(await sandbox.call("busy", "marks", [])).toBe(0);
    expect(violations).toEqual([]);
    expect(await sandbox.call("busy", "mark", [])).toBe(1);
  });

  it("still counts a call that began and did not finish in time as the plugin's timeout", async () => {
    const failure = await failureOf(sandbox.call("busy", "spin", [600], { timeoutMs: 200 }));
    expect(failure.kind).toBe("timeout");
    expect(violations).toEqual(["busy:timeout"]);
  });
});
