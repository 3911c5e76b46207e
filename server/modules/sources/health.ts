import type { SourceErrorKind } from "./types.js";

/**
 * Health of each external source (issue 11, "Health"): what its recent searches did, and a
 * circuit breaker that stops asking a source that keeps failing.
 *
 * Breaker: `closed` asks the source every time. After `failureThreshold` consecutive failures
 * it opens: for `coolDownMs` every search skips the source at once (ProviderUnavailable, named
 * in `errors` as 源站暂时不可用). When the cool-down is over the breaker is `half-open`: the next
 * search is let through as a probe (only that one; others keep skipping while it runs). The
 * probe's success closes the breaker, its failure opens it again for another cool-down.
 *
 * The breaker's time is the server's clock (tests move it); latencies are measured by the
 * caller with a monotonic timer.
 */

export type BreakerState = "closed" | "open" | "half-open";

/** A breaker opened (at `openedAt`, the server's clock) or closed: what instances tell each other (ADR 0039). */
export type BreakerChange = { state: "open"; openedAt: number } | { state: "closed" };

export interface HealthOptions {
  /** Consecutive failures that open the breaker. */
  failureThreshold?: number;
  /** How long an open breaker skips the source before a probe. */
  coolDownMs?: number;
  /** Calls kept for the success rate and latency percentiles. */
  windowSize?: number;
  /** Milliseconds since the epoch (the server's clock). */
  now?: () => number;
  logger?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** This instance's breaker of `code` opened or closed (several instances share it through Redis). */
  onBreaker?: (code: string, change: BreakerChange) => void;
}

export const HEALTH_DEFAULTS = { failureThreshold: 5, coolDownMs: 30_000, windowSize: 100 } as const;

export interface CallFailure {
  kind: SourceErrorKind | "unknown";
  message: string;
}

export interface SourceHealthSnapshot {
  code: string;
  name: string;
  state: BreakerState;
  /** Successes / calls in the window, or null before the first call. */
  successRate: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  lastError: (CallFailure & { at: string }) | null;
  consecutiveFailures: number;
  /** Calls since start (the window only keeps the last `windowSize`). */
  calls: number;
  failures: number;
  /** Searches answered at once while the breaker was open. */
  skipped: number;
  /** When an open breaker lets its next probe through (ISO), else null. */
  retryAt: string | null;
}

export interface SourceHealth {
  readonly code: string;
  /** May this call go to the source now? False while open (and while a half-open probe runs). */
  admit(): boolean;
  succeeded(latencyMs: number): void;
  failed(latencyMs: number, failure: CallFailure): void;
  /**
   * An admitted call that never reached the site (our own queue had no time for it, e.g. a busy
   * plugin sandbox): nothing is learned about the site; a half-open probe it held may go again.
   */
  notAsked(): void;
  snapshot(): SourceHealthSnapshot;
  /** The shown name changed (an admin renamed the site). */
  rename(name: string): void;
  /** Another instance's breaker of this source opened or closed: this one follows. */
  learn(change: BreakerChange): void;
}

/** p-th percentile (nearest rank) of the values. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

type Settings = Required<Omit<HealthOptions, "logger" | "onBreaker">> & Pick<HealthOptions, "logger" | "onBreaker">;

function sourceHealth(code: string, shownName: string, options: Settings): SourceHealth {
  const { failureThreshold, coolDownMs, windowSize, now, logger, onBreaker } = options;
  const window: { ok: boolean; ms: number }[] = [];
  let name = shownName;
  let state: BreakerState = "closed";
  let openedAt = 0;
  let probing = false;
  let consecutiveFailures = 0;
  let lastError: SourceHealthSnapshot["lastError"] = null;
  const counts = { calls: 0, failures: 0, skipped: 0 };

  function remember(ok: boolean, ms: number) {
    window.push({ ok, ms: Math.round(ms) });
    if (window.length > windowSize) window.shift();
    counts.calls += 1;
  }

  function open(reason: string) {
    state = "open";
    openedAt = now();
    probing = false;
    logger?.warn({ source: code, consecutiveFailures, lastError, coolDownMs }, `source circuit opened (${reason})`);
    onBreaker?.(code, { state: "open", openedAt });
  }

  return {
    code,
    admit() {
      if (state === "open" && now() - openedAt >= coolDownMs) {
        state = "half-open";
        logger?.info({ source: code }, "source circuit half-open: probing");
      }
      if (state === "closed") return true;
      if (state === "half-open" && !probing) {
        probing = true;
        return true;
      }
      counts.skipped += 1;
      return false;
    },
    succeeded(latencyMs) {
      remember(true, latencyMs);
      consecutiveFailures = 0;
      if (state !== "closed") {
        state = "closed";
        probing = false;
        logger?.info({ source: code }, "source circuit closed: probe succeeded");
        onBreaker?.(code, { state: "closed" });
      }
    },
    learn(change) {
      if (change.state === "open") {
        // A later opening wins; an instance already probing keeps its probe's answer to come.
        if (state === "open" && openedAt >= change.openedAt) return;
        state = "open";
        openedAt = change.openedAt;
        probing = false;
      } else if (state !== "closed") {
        state = "closed";
        probing = false;
        consecutiveFailures = 0;
      }
    },
    failed(latencyMs, failure) {
      remember(false, latencyMs);
      counts.failures += 1;
      consecutiveFailures += 1;
      lastError = { ...failure, at: new Date(now()).toISOString() };
      if (state === "half-open") open("probe failed");
      else if (state === "closed" && consecutiveFailures >= failureThreshold) open(`${consecutiveFailures} consecutive failures`);
    },
    notAsked() {
      if (state === "half-open") probing = false;
    },
    rename(next) {
      name = next;
    },
    snapshot() {
      const latencies = window.map((c) => c.ms).sort((a, b) => a - b);
      const successes = window.filter((c) => c.ok).length;
      return {
        code,
        name,
        state: state === "open" && now() - openedAt >= coolDownMs ? "half-open" : state,
        successRate: window.length === 0 ? null : successes / window.length,
        p50Ms: percentile(latencies, 50),
        p95Ms: percentile(latencies, 95),
        lastError,
        consecutiveFailures,
        ...counts,
        retryAt: state === "open" ? new Date(openedAt + coolDownMs).toISOString() : null,
      };
    },
  };
}

/**
 * The health of every configured source, one per code (one board per `createServices`). With
 * `sources` (the directory's list), `list()` shows the sources in use now, in their order.
 */
export function healthBoard(options: HealthOptions & { sources?: () => readonly { code: string; name: string }[] } = {}) {
  const settings = {
    failureThreshold: options.failureThreshold ?? HEALTH_DEFAULTS.failureThreshold,
    coolDownMs: options.coolDownMs ?? HEALTH_DEFAULTS.coolDownMs,
    windowSize: options.windowSize ?? HEALTH_DEFAULTS.windowSize,
    now: options.now ?? Date.now,
    logger: options.logger,
    onBreaker: options.onBreaker,
  };
  const sources = new Map<string, SourceHealth>();
  const board = {
    track(code: string, name: string): SourceHealth {
      const existing = sources.get(code);
      if (existing) {
        existing.rename(name);
        return existing;
      }
      const health = sourceHealth(code, name, settings);
      sources.set(code, health);
      return health;
    },
    /** Another instance's breaker of `code` changed (ADR 0039). */
    learn(code: string, change: BreakerChange): void {
      let health = sources.get(code);
      if (!health) sources.set(code, (health = sourceHealth(code, code, settings)));
      health.learn(change);
    },
    /** A new adapter for the source (its config was repaired): a fresh record and a closed breaker. */
    reset(code: string): void {
      sources.delete(code);
    },
    list(): SourceHealthSnapshot[] {
      if (options.sources) return options.sources().map((s) => board.track(s.code, s.name).snapshot());
      return [...sources.values()].map((s) => s.snapshot());
    },
  };
  return board;
}

export type HealthBoard = ReturnType<typeof healthBoard>;
