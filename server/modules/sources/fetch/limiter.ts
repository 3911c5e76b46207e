/**
 * The per-source cap: at most `concurrency` requests at once, and starts at least
 * `minIntervalMs` apart (public scrapers wait 0.3-1 s between requests; the sites document no
 * limit). Waiting requests queue in order; one whose signal aborts leaves the queue.
 */
export function createLimiter({ concurrency, minIntervalMs }: { concurrency: number; minIntervalMs: number }) {
  let active = 0;
  let lastStart = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  const queue: { start: () => void }[] = [];

  function pump(): void {
    if (timer !== null) return;
    while (queue.length > 0 && active < concurrency) {
      const wait = lastStart + minIntervalMs - performance.now();
      if (wait > 0) {
        timer = setTimeout(() => {
          timer = null;
          pump();
        }, Math.ceil(wait));
        return;
      }
      const next = queue.shift()!;
      active += 1;
      lastStart = performance.now();
      next.start();
    }
  }

  /** Runs `task` when a slot is free; the slot is released when it settles. */
  return function run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        const at = queue.indexOf(entry);
        if (at >= 0) queue.splice(at, 1);
        reject(signal!.reason);
      };
      const entry = {
        start: () => {
          signal?.removeEventListener("abort", onAbort);
          task()
            .then(resolve, reject)
            .finally(() => {
              active -= 1;
              pump();
            });
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      queue.push(entry);
      pump();
    });
  };
}
