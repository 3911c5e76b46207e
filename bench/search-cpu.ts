/**
 * The streamed-search bench's CPU windows (bench/search-stream.ts): each process's and the
 * server's threads' CPU in the windows after a round's start that hold one burst of answers,
 * from /proc (bench/proc-cpu.ts). Where the time went when a source's event came late.
 */
import type { ELDHistogram } from "node:perf_hooks";
import { processesMs, threadsMs } from "./proc-cpu.js";

/** Windows after a round's start, each holding one burst of answers (ms). */
export const WINDOWS: [string, number, number][] = [
  ["0–200 ms (本站, s50)", 0, 200],
  ["300–500 ms (s300)", 300, 500],
  ["1000–1200 ms (s1000)", 1000, 1200],
  ["3000–3200 ms (s3000)", 3000, 3200],
];

export interface Snap {
  at: number;
  /** This process's longest event-loop delay since the previous reading (ms, its 10 ms tick included). */
  benchLoopMax: number;
  serverMain: number;
  /** The server's main thread runnable but not running: the machine's other work had the cores. */
  serverMainWaited: number;
  serverOthers: number;
  bench: number;
  clients: number;
  chromium: number;
  sites: number;
}
const CPU_KEYS = ["serverMain", "serverMainWaited", "serverOthers", "bench", "clients", "chromium", "sites"] as const;
type Window = Record<string, number>;

/** Reads every process's CPU so far (ms) and this process's loop delay since the last reading. */
export function cpuSampler(pids: { server: number; clients: number; chromium: number[]; sites: number }, benchLoop: ELDHistogram): () => Snap {
  return () => {
    const s = threadsMs(pids.server);
    const b = threadsMs(process.pid);
    const benchLoopMax = benchLoop.max / 1e6;
    benchLoop.reset();
    return {
      at: performance.now(),
      benchLoopMax,
      serverMain: s.main,
      serverMainWaited: s.mainWait,
      serverOthers: s.others,
      bench: b.main + b.others,
      clients: processesMs([pids.clients]),
      chromium: processesMs(pids.chromium),
      sites: processesMs([pids.sites]),
    };
  };
}

/** One round's windows in cores (CPU time / wall time), added to `windows` by name; the whole round too. */
export function addRoundWindows(windows: Record<string, Window[]>, snaps: Map<number, Snap>): void {
  const pairs: [string, Snap | undefined, Snap | undefined][] = [
    ...WINDOWS.map(([name, from, to]) => [name, snaps.get(from), snaps.get(to)] as [string, Snap | undefined, Snap | undefined]),
    ["whole round", snaps.get(0), snaps.get(-1)],
  ];
  for (const [name, a, b] of pairs) {
    if (!a || !b) continue;
    const wall = b.at - a.at;
    const cores = (k: (typeof CPU_KEYS)[number]) => (b[k] - a[k]) / wall;
    (windows[name] ??= []).push({ ...Object.fromEntries(CPU_KEYS.map((k) => [k, cores(k)])), benchLoopMax: name === "whole round" ? NaN : b.benchLoopMax - 10 });
  }
}

/** Mean / max per window over the rounds, for console.table. */
export function cpuTable(windows: Record<string, Window[]>): Record<string, Record<string, string>> {
  const meanOf = (list: Window[], k: string) => list.reduce((s, x) => s + x[k]!, 0) / list.length;
  return Object.fromEntries(
    Object.entries(windows).map(([name, list]) => [
      name,
      {
        ...Object.fromEntries(CPU_KEYS.map((k) => [`${k} (mean / max)`, `${meanOf(list, k).toFixed(2)} / ${Math.max(...list.map((x) => x[k]!)).toFixed(2)}`])),
        "bench loop delay max ms": name === "whole round" ? "" : Math.max(...list.map((x) => x.benchLoopMax!)).toFixed(1),
      },
    ]),
  );
}
