import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time of processes and threads from /proc (Linux), to say which process a benchmark's time
 * went to: the server's main thread, its other threads, the bench process, the browser.
 * Threads are read from schedstat (ns: time on a CPU, time runnable but waiting for one); whole
 * processes from stat, in USER_HZ ticks (100 a second): good to ~10 ms, so compare windows of
 * 200 ms or more.
 */
const TICK_MS = 10;

/** utime + stime of one /proc stat line, in ms (fields 14 and 15; the name in parentheses may hold spaces). */
function statMs(text: string): number {
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

const read = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // gone since the listing
  }
};

/**
 * A process's main thread (the thread whose id is the process's): ms on a CPU and ms waiting for
 * one (runnable, the machine busy); its other threads' ms on a CPU.
 */
export function threadsMs(pid: number): { main: number; mainWait: number; others: number } {
  const times = { main: 0, mainWait: 0, others: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const text = read(`/proc/${pid}/task/${tid}/schedstat`);
    if (!text) continue;
    const [cpu, wait] = text.split(" ").map((n) => Number(n) / 1e6);
    if (Number(tid) === pid) Object.assign(times, { main: cpu!, mainWait: wait! });
    else times.others += cpu!;
  }
  return times;
}

/** Every descendant of `pid` (children, their children…), as a parent → children walk of /proc. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const text = read(`/proc/${entry}/stat`);
    if (!text) continue;
    const ppid = Number(text.slice(text.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (found.push(c), walk(c)));
  walk(pid);
  return found;
}

/** CPU ms of whole processes (all their threads; children that exited and were waited for are not counted). */
export function processesMs(pids: number[]): number {
  return pids.reduce((sum, pid) => {
    const text = read(`/proc/${pid}/stat`);
    return sum + (text ? statMs(text) : 0);
  }, 0);
}
