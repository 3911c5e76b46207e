/**
 * The stream bench's main table (bench/search-stream.ts): one row per measure, with its n, p50,
 * p95, max, budget, whether it was met, and the reference (each site's own time for the same
 * searches, or the catalogue alone) with what the server, the wire and the page added to it.
 */
import { p50p95, quantile } from "./quantile.js";
import type { Marks } from "./search-pages.js";
import type { FixtureSiteTimes } from "./search-stream-peers.js";

export const FIRST_PAINT_BUDGET_MS = 200;
export const SOURCE_BUDGET_MS = 50;

export interface ResultsInput {
  sites: (FixtureSiteTimes & { latency: number })[];
  /** The catalogue alone, one search at a time (ms). */
  localMs: number[];
  /** The fetched streams: each source's event, ms after the stream was sent. */
  streamed: { arrivals: Record<string, number>; keyword: string }[];
  /** From the fetch clients' call to their write of that search's request (ms). */
  writeDelay(keyword: string): number;
  /** The pages' searches, by who searched (the page, the bare page, the --ab-css page). */
  pages: readonly (readonly [string, readonly { marks: Marks; keyword: string }[]])[];
}

const f = (n: number) => n.toFixed(1);
const since = (m: Marks, name: string) => m[name]! - m["search-request"]!;

export function resultsTable({ sites, localMs, streamed, writeDelay, pages }: ResultsInput): Record<string, string | number>[] {
  const rows: Record<string, string | number>[] = [];
  const row = (what: string, ms: number[], budget: number, reference?: { ms: number[]; added: number[] }) =>
    ms.length > 0 &&
    rows.push({
      what,
      n: ms.length,
      "p50 ms": f(quantile(ms, 0.5)),
      "p95 ms": f(quantile(ms, 0.95)),
      "max ms": f(Math.max(...ms)),
      budget: `≤ ${budget}`,
      met: Math.max(...ms) <= budget ? "yes" : quantile(ms, 0.95) <= budget ? "p95" : "no",
      "reference p50/p95": reference ? p50p95(reference.ms) : "",
      "added p50/p95": reference ? p50p95(reference.added) : "",
    });
  const siteRef = (code: string, list: { keyword: string; ms: number }[]) => {
    const served = sites.find((s) => s.code === code)!.served;
    const pairs = list.filter((x) => served.has(x.keyword));
    return { ms: pairs.map((x) => served.get(x.keyword)!), added: pairs.map((x) => x.ms - served.get(x.keyword)!) };
  };
  const localRef = (ms: number[]) => ({ ms: localMs, added: ms.map((m) => m - quantile(localMs, 0.5)) });

  const fetchLocal = streamed.map((s) => s.arrivals.local!);
  row("fetch: 本站's event arrived", fetchLocal, FIRST_PAINT_BUDGET_MS, localRef(fetchLocal));
  for (const { code, latency } of sites) {
    const list = streamed.map((s) => ({ keyword: s.keyword, ms: s.arrivals[code]! }));
    row(`fetch: ${code}'s event arrived`, list.map((x) => x.ms), latency + SOURCE_BUDGET_MS, siteRef(code, list));
  }
  // The same events from when the fetch clients had written each request rather than from their
  // call: in a burst one process writes fifteen requests, the last a little after its call (its
  // queue, not the server's); a visitor's browser sends its one request at once.
  row("fetch from the wire: 本站", streamed.map((s) => s.arrivals.local! - writeDelay(s.keyword)), FIRST_PAINT_BUDGET_MS);
  for (const { code, latency } of sites) {
    const list = streamed.map((s) => ({ keyword: s.keyword, ms: s.arrivals[code]! - writeDelay(s.keyword) }));
    row(`fetch from the wire: ${code}`, list.map((x) => x.ms), latency + SOURCE_BUDGET_MS, siteRef(code, list));
  }
  for (const [who, list] of pages) {
    const paintFirst = list.map((s) => since(s.marks, "search-first-results"));
    row(`${who}: first results painted (本站)`, paintFirst, FIRST_PAINT_BUDGET_MS, localRef(paintFirst));
    for (const { code, latency } of sites) {
      const painted = list.map((s) => ({ keyword: s.keyword, ms: since(s.marks, `search-source:${code}`) }));
      row(`${who}: ${code}'s results painted`, painted.map((x) => x.ms), latency + SOURCE_BUDGET_MS, siteRef(code, painted));
    }
  }
  return rows;
}
