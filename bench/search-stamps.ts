/**
 * Where a streamed search's time goes inside the server (bench/search-stream.ts `--stamps`), from
 * Node's own diagnostics channels, no change to the app: when each stream request was read by the
 * server (`http.server.request.start`: its headers parsed on the main thread), when its route's
 * handler began (Fastify's `tracing:fastify.request.handler:start`: its hooks done) and when the
 * server started each site request of that keyword (`http.client.request.start`). Times on the
 * wall clock's scale (performance.timeOrigin + now()), as the fixture sites' process and the bench use.
 * The bench asks for them over IPC at the end (`{ stamps: true }` → `{ stamps: SearchStamps }`).
 */
import { subscribe } from "node:diagnostics_channel";
import type { ClientRequest, IncomingMessage } from "node:http";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { p50p95 } from "./quantile.js";

export interface SearchStamps {
  /** keyword → the stream request read by the server. */
  streamRead: Record<string, number>;
  /** keyword → its route's handler started (Fastify's hooks done: `tracing:fastify.request.handler:start`). */
  handlerStarted: Record<string, number>;
  /** keyword → host:port → the first site request started for it. */
  siteAsked: Record<string, Record<string, number>>;
  /** The main thread's garbage collections of 1 ms or more: when each began, its pause (ms) and kind. */
  gc: { at: number; ms: number; kind: string }[];
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "scavenge",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "mark-compact",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental marking",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks",
};

const wall = () => performance.timeOrigin + performance.now();
/** The search keyword of a stream request or of a djuu search request (page or app API). */
const keywordOf = (path: string) => {
  const query = new URL(path, "http://x").searchParams;
  return query.get("keyword") ?? query.get("musicname") ?? query.get("keywords");
};

export function recordSearchStamps(): SearchStamps {
  const stamps: SearchStamps = { streamRead: {}, handlerStarted: {}, siteAsked: {}, gc: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration < 1) continue;
      const { kind, flags } = (entry as PerformanceEntry & { detail: { kind: number; flags: number } }).detail;
      const reducing = flags & constants.NODE_PERFORMANCE_GC_FLAGS_ALL_AVAILABLE_GARBAGE ? " (all garbage)" : "";
      stamps.gc.push({ at: performance.timeOrigin + entry.startTime, ms: entry.duration, kind: `${GC_KINDS[kind] ?? kind}${reducing}` });
    }
  }).observe({ entryTypes: ["gc"] });
  subscribe("tracing:fastify.request.handler:start", (message) => {
    const { request } = message as { request: { url: string } };
    if (!request.url.includes("/indexsearch/stream")) return;
    const keyword = keywordOf(request.url);
    if (keyword) stamps.handlerStarted[keyword] ??= wall();
  });
  subscribe("http.server.request.start", (message) => {
    const { request } = message as { request: IncomingMessage };
    if (!request.url?.includes("/indexsearch/stream")) return;
    const keyword = keywordOf(request.url);
    if (keyword) stamps.streamRead[keyword] ??= wall();
  });
  subscribe("http.client.request.start", (message) => {
    const { request } = message as { request: ClientRequest };
    const keyword = keywordOf(request.path);
    if (!keyword) return;
    // Node sets it from the URL: the fixture site's 127.0.0.1:port.
    const host = String(request.getHeader("host") ?? request.host);
    (stamps.siteAsked[keyword] ??= {})[host] ??= wall();
  });
  return stamps;
}

/**
 * The way from each fetched stream's send to its sites, ms after the send (p50 / p95; times on the
 * bench's performance.now() scale): the fetch clients wrote the request, the server read the
 * request, started its first and last site request, the first site received it. And the time
 * between two reads of one burst, in the order the server read them: its main thread reads the
 * next request once the previous one's synchronous work (its sites' requests included) is done.
 */
export function pathToTheSites(run: {
  /** The fetched streams' keywords, by round. */
  rounds: string[][];
  sentAt: Map<string, number>;
  headersWrittenAt: Map<string, number>;
  stamps: SearchStamps;
  receivedAt: (keyword: string) => number;
}): Record<string, string> {
  const local = (wallMs: number) => wallMs - performance.timeOrigin;
  const steps = run.rounds.flat().map((keyword) => {
    const sent = run.sentAt.get(keyword)!;
    const asked = Object.values(run.stamps.siteAsked[keyword] ?? {}).map(local);
    return {
      written: run.headersWrittenAt.get(keyword)! - sent,
      read: local(run.stamps.streamRead[keyword]!) - sent,
      handler: local(run.stamps.handlerStarted[keyword]!) - sent,
      asked: Math.min(...asked) - sent,
      lastAsked: Math.max(...asked) - sent,
      received: run.receivedAt(keyword) - sent,
    };
  });
  const step = (k: keyof (typeof steps)[number]) => p50p95(steps.map((x) => x[k]));
  const gaps = run.rounds.flatMap((keywords) => {
    const reads = keywords.map((k) => local(run.stamps.streamRead[k]!)).sort((a, b) => a - b);
    return reads.slice(1).map((at, i) => at - reads[i]!);
  });
  return {
    "request written by the fetch clients": step("written"),
    "request read by the server": step("read"),
    "its route's handler started (Fastify's hooks done)": step("handler"),
    "first site request started by the server": step("asked"),
    "last of its site requests started": step("lastAsked"),
    "first site request received by its site": step("received"),
    "from one read to the next in a burst (the server's time per search)": p50p95(gaps),
  };
}
