import { describe, expect, it } from "vitest";
import { sourceStatus } from "./source-status";
import type { SourceHealth } from "./source-types";

const health = (over: Partial<SourceHealth> = {}): SourceHealth => ({
  code: "djuu",
  name: "DJUU",
  state: "closed",
  successRate: null,
  p50Ms: null,
  p95Ms: null,
  lastError: null,
  consecutiveFailures: 0,
  calls: 0,
  failures: 0,
  skipped: 0,
  retryAt: null,
  canary: null,
  ...over,
});

describe("what the sources screen says of a source", () => {
  it("off, on and in use, or on but not in use here", () => {
    expect(sourceStatus({ enabled: false, inUse: false }, undefined).use).toEqual({ text: "已停用" });
    expect(sourceStatus({ enabled: true, inUse: true }, health()).use).toEqual({ text: "使用中", color: "green" });
    expect(sourceStatus({ enabled: true, inUse: false }, undefined).use).toMatchObject({ text: "未生效", color: "orange" });
  });

  it("an open breaker: until when (China time) and why", () => {
    const open = health({
      state: "open",
      retryAt: "2026-11-22T00:05:09.000Z",
      lastError: { kind: "network", message: "getaddrinfo ENOTFOUND www.djuu.com", at: "2026-11-22T00:04:39.000Z" },
    });
    expect(sourceStatus({ enabled: true, inUse: true }, open)).toEqual({
      use: { text: "使用中", color: "green" },
      breaker: { text: "已熔断", color: "red" },
      until: "2026-11-22 08:05:09",
      reason: { text: "无法连接", message: "getaddrinfo ENOTFOUND www.djuu.com", at: "2026-11-22 08:04:39" },
    });
  });

  it("a closed breaker has no 'until'; a timeout is said as such; a source not in use shows no health", () => {
    const s = sourceStatus({ enabled: true, inUse: true }, health({ lastError: { kind: "timeout", message: "search timed out", at: "2026-11-22T00:00:00.000Z" } }));
    expect(s).toMatchObject({ breaker: { text: "正常" }, until: null, reason: { text: "超时" } });
    expect(sourceStatus({ enabled: false, inUse: false }, health({ state: "open" }))).toMatchObject({ breaker: null, until: null, reason: null });
  });
});
