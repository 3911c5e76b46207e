import { describe, expect, it } from "vitest";
import { healthBoard } from "./health.js";

const failure = { kind: "http" as const, message: "status 500" };

function board(threshold = 3, coolDownMs = 1_000) {
  let now = 1_800_000_000_000;
  const lines: { level: string; msg: string }[] = [];
  const logger = { warn: (_: object, msg: string) => lines.push({ level: "warn", msg }), info: (_: object, msg: string) => lines.push({ level: "info", msg }) };
  const b = healthBoard({ failureThreshold: threshold, coolDownMs, windowSize: 10, now: () => now, logger });
  return { b, lines, advance: (ms: number) => (now += ms) };
}

describe("source health", () => {
  it("keeps the success rate and p50/p95 over a sliding window", () => {
    const { b } = board(100);
    const h = b.track("djuu", "DJUU");
    for (let ms = 10; ms <= 200; ms += 10) h.succeeded(ms); // 20 calls: the window keeps 110..200
    h.failed(500, failure);
    const s = b.list()[0]!;
    expect(s).toMatchObject({ code: "djuu", name: "DJUU", calls: 21, failures: 1, consecutiveFailures: 1, successRate: 0.9, p50Ms: 160, p95Ms: 500 });
    expect(s.lastError).toEqual({ ...failure, at: new Date(1_800_000_000_000).toISOString() });
  });

  it("a success in between resets the consecutive failures: the breaker stays closed", () => {
    const { b } = board(3);
    const h = b.track("djuu", "DJUU");
    h.failed(1, failure);
    h.failed(1, failure);
    h.succeeded(1);
    h.failed(1, failure);
    h.failed(1, failure);
    expect(h.admit()).toBe(true);
    expect(b.list()[0]!.state).toBe("closed");
  });

  it("learns nothing from a call that never reached the site (our queue was busy), and frees its probe", () => {
    const { b, advance } = board(2, 1_000);
    const h = b.track("plugin-site", "插件站");
    h.failed(1, failure);
    h.notAsked();
    h.notAsked();
    expect(b.list()[0]).toMatchObject({ state: "closed", calls: 1, failures: 1, consecutiveFailures: 1 });
    h.failed(1, failure);
    advance(1_000);
    expect(h.admit()).toBe(true); // the probe…
    h.notAsked(); // …never reached the site
    expect(b.list()[0]).toMatchObject({ state: "half-open", calls: 2, failures: 2 });
    expect(h.admit()).toBe(true); // another probe may go
  });

  it("opens, lets one probe through after the cool-down, reopens on its failure and closes on success", () => {
    const { b, lines, advance } = board(2, 1_000);
    const h = b.track("djuu", "DJUU");
    h.failed(1, failure);
    h.failed(1, failure);
    expect(h.admit()).toBe(false);
    expect(b.list()[0]).toMatchObject({ state: "open", skipped: 1, retryAt: new Date(1_800_000_001_000).toISOString() });
    advance(999);
    expect(h.admit()).toBe(false);
    advance(1);
    expect(h.admit()).toBe(true); // the probe
    expect(h.admit()).toBe(false); // others wait while it runs
    h.failed(1, failure);
    expect(h.admit()).toBe(false);
    advance(1_000);
    expect(h.admit()).toBe(true);
    h.succeeded(1);
    expect(h.admit()).toBe(true);
    expect(b.list()[0]).toMatchObject({ state: "closed", consecutiveFailures: 0, retryAt: null });
    expect(lines.map((l) => `${l.level} ${l.msg}`)).toEqual([
      "warn source circuit opened (2 consecutive failures)",
      "info source circuit half-open: probing",
      "warn source circuit opened (probe failed)",
      "info source circuit half-open: probing",
      "info source circuit closed: probe succeeded",
    ]);
  });
});
