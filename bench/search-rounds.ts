/**
 * The streamed-search bench's rounds one by one (bench/search-stream.ts): whether a p95 over
 * budget is every round a little late, or one round late as a whole (a pause of the server's,
 * of the bench's own loop, or of the page's).
 */
import { quantile } from "./quantile.js";

export interface RoundTimes {
  /** When its first request was sent (the bench's performance.now()). */
  startedAt: number;
  /** Each fetched stream's events from when its request was written (ms), by source code. */
  fromTheWire: Record<string, number>[];
  /** The Chromium page's marks from its search request (ms), by source code. */
  painted: Record<string, number>[];
  /** When each page's search left after the round's first fetched one (ms): in the burst, or after it. */
  pageSentAfter: number[];
  /** The server's event-loop delay max in the round (ms; its own monitor, over IPC, with --stamps; else NaN). */
  serverLoopMax: number;
  /** The bench process's (Playwright's driver) event-loop delay max in the burst's first 200 ms (ms). */
  benchLoopMax: number;
}

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "");

/** One row a round: the catalogue's and the fastest site's events (p50 / max), and both loops' worst delay. */
export function roundRows(rounds: RoundTimes[], fastest: string, gc?: { at: number; ms: number; kind: string }[]): Record<string, string>[] {
  return rounds.map((r) => {
    // The server's pauses (--stamps; on the bench's clock) while the catalogue and the fastest site answered.
    const pauses = gc?.filter((p) => p.at >= r.startedAt && p.at < r.startedAt + 200).map((p) => `${p.kind} ${p.ms.toFixed(0)}`);
    const wire = (code: string) => r.fromTheWire.map((a) => a[code]!).filter((x) => x !== undefined);
    const both = (list: number[]) => `${f(quantile(list, 0.5))} / ${f(Math.max(...list))}`;
    return {
      "本站 from the wire p50 / max": both(wire("local")),
      [`${fastest} from the wire p50 / max`]: both(wire(fastest)),
      [`Chromium 本站 / ${fastest}`]: r.painted.map((m) => `${f(m.local!)} / ${f(m[fastest]!)}`).join(", "),
      "page sent after the first fetched, ms": r.pageSentAfter.map(f).join(", "),
      "server loop max ms": f(r.serverLoopMax),
      "driver loop max ms (0-200)": f(r.benchLoopMax),
      ...(pauses ? { "server GC ms (0-200)": pauses.join(", ") } : {}),
    };
  });
}

/** The page alone (its searches with nothing else in flight): each source's paint p50 / max, from its `search-request` mark. */
export function aloneLine(alone: Record<string, number>[], siteCodes: string[]): string {
  return ["local", ...siteCodes]
    .map((code) => {
      const ms = alone.map((m) => m[code === "local" ? "search-first-results" : `search-source:${code}`]! - m["search-request"]!);
      return `${code === "local" ? "本站" : code} ${f(quantile(ms, 0.5))} / ${f(Math.max(...ms))}`;
    })
    .join(", ");
}
