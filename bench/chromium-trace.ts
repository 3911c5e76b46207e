/**
 * Where the page's time went between its search and a source's paint (bench/search-stream.ts
 * `--trace file`): Chromium's own trace of the measured rounds, read per round on the page's
 * renderer main thread. For each round's window (the page's `search-request` mark to its
 * `search-source:{code}` mark): the time its tasks ran on a core (thread time), the time they
 * were running but off a core (wall minus thread time: the machine's other work had the cores),
 * the time it had no task (waiting for the network, a frame, or a core to start one), and the
 * main kinds of work inside (script, style, layout, paint, GC).
 */
import type { Browser, Page } from "playwright-core";

const CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "v8", "loading", "cc", "viz"];

export async function startTrace(browser: Browser, page: Page): Promise<void> {
  await browser.startTracing(page, { categories: CATEGORIES });
}

interface TraceEvent {
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  ph: string;
  name: string;
  cat: string;
  args?: { name?: string; data?: { url?: string; requestId?: string } };
}

/** The kinds of work counted inside a window, ms (nested ones, e.g. GC inside script or paint inside a frame, are counted in both). */
const KINDS: Record<string, string[]> = {
  script: ["FunctionCall", "EvaluateScript", "RunMicrotasks", "TimerFire", "FireAnimationFrame", "EventDispatch"],
  style: ["UpdateLayoutTree", "RecalculateStyles"],
  layout: ["Layout"],
  "pre-paint, paint, layerize": ["PrePaint", "Paint", "Layerize", "UpdateLayer", "PaintImage"],
  commit: ["Commit"],
  gc: ["MinorGC", "MajorGC", "V8.GC_SCAVENGER", "V8.GC_MARK_COMPACTOR", "BlinkGC.AtomicPhase"],
  frames: ["ProxyMain::BeginMainFrame"],
};

/** One row per round and source: the renderer main thread's account of the window, ms. */
export function accountRounds(traceJson: Buffer, codes: string[]): Record<string, string | number>[] {
  const events = (JSON.parse(traceJson.toString("utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
  const threadName = new Map<string, string>();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") threadName.set(`${e.pid}:${e.tid}`, e.args?.name ?? "");
  const allRequests = events.filter((e) => e.cat.includes("blink.user_timing") && e.name === "search-request").sort((a, b) => a.ts - b.ts);
  if (allRequests.length === 0) return [];
  // The traced page's renderer main thread (another tab, e.g. the bare page, has its own).
  const main = `${allRequests[0]!.pid}:${allRequests[0]!.tid}`;
  const onThread = (e: TraceEvent) => `${e.pid}:${e.tid}` === main;
  const requests = allRequests.filter(onThread);
  const onMain = events.filter((e) => onThread(e) && e.ph === "X" && e.dur !== undefined);
  // Top-level tasks only: a task's trace event may hold nested ones (run inside it).
  const tasks: TraceEvent[] = [];
  for (const task of onMain.filter((e) => e.name === "ThreadControllerImpl::RunTask" || e.name === "RunTask").sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)) {
    const last = tasks.at(-1);
    if (!last || task.ts >= last.ts + last.dur!) tasks.push(task);
  }
  const marks = events.filter((e) => e.cat.includes("blink.user_timing") && onThread(e));
  // Stream chunks as the renderer got them (the network service's data, read by the page's fetch).
  const received = events.filter((e) => e.name === "ResourceReceivedData" && e.pid === requests[0]!.pid);
  const rows: Record<string, string | number>[] = [];
  requests.forEach((request, round) => {
    const until = requests[round + 1]?.ts ?? Infinity;
    for (const code of ["first-results", ...codes]) {
      const name = code === "first-results" ? "search-first-results" : `search-source:${code}`;
      const end = marks.find((m) => m.name === name && m.ts > request.ts && m.ts < until)?.ts;
      if (end === undefined) continue;
      const inWindow = (e: TraceEvent) => e.ts >= request.ts && e.ts + (e.dur ?? 0) <= end;
      const windowTasks = tasks.filter(inWindow);
      const wall = windowTasks.reduce((s, t) => s + t.dur!, 0);
      const cpu = windowTasks.reduce((s, t) => s + (t.tdur ?? t.dur!), 0);
      const kinds = Object.fromEntries(
        Object.entries(KINDS).map(([kind, names]) => [kind, ms(onMain.filter((e) => names.includes(e.name) && inWindow(e)).reduce((s, e) => s + e.dur!, 0))]),
      );
      const chunks = received.filter((e) => e.ts >= request.ts && e.ts <= end);
      rows.push({
        round,
        to: code,
        "window ms": ms(end - request.ts),
        "tasks on a core": ms(cpu),
        "tasks off a core": ms(wall - cpu),
        "no task": ms(end - request.ts - wall),
        tasks: windowTasks.length,
        // How much was painted again: each cover or logo drawn counts once per frame that paints it.
        "images painted": onMain.filter((e) => e.name === "PaintImage" && inWindow(e)).length,
        "longest task": ms(Math.max(0, ...windowTasks.map((t) => t.dur!))),
        ...kinds,
        "last chunk before the mark, ms before it": chunks.length ? ms(end - chunks.at(-1)!.ts) : "",
      });
    }
  });
  return rows;
}

const ms = (us: number) => Number((us / 1000).toFixed(1));
