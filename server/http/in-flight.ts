import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * A request counts from its arrival until its answer is handed over (onSend): the transfer of a
 * long answer (an hour-long mix streaming) is not work of this thread. Past this age a request
 * no longer counts anyway (one whose hooks never ran to the end must not hold work back forever).
 */
const COUNTED_MS = 10_000;
/** Quiet: nothing in flight and nothing arrived for this long (the next of a burst is near). */
export const QUIET_MS = 25;
/**
 * Every wait for quiet lasts at least this long, on a timer: the event loop then polls for new
 * connections and their bytes. Work chained in promises alone (a PGlite query runs in this
 * thread; a render awaits only it) never lets the loop poll, and a request sent meanwhile would
 * not even be seen arriving: at start 217 pages rendered back to back held the first request
 * for their whole 7.5 s on PGlite.
 */
const YIELD_MS = 10;

/** Whether the server is busy with requests: for work that must wait for a quiet moment. */
export interface RequestsInFlight {
  /** Requests being worked on now. */
  count(): number;
  /** A request answered outside Fastify's hooks arrived now (the kept-page lane answers at once). */
  arrived(): void;
  /** Resolves, after a timer at least, once nothing is in flight and nothing arrived for QUIET_MS; false if `stopped()` said so first. */
  quiet(stopped: () => boolean): Promise<boolean>;
}

/** Tracks every request of the app (register before the routes, on the root instance). */
export function trackRequestsInFlight(app: FastifyInstance): RequestsInFlight {
  const started = new Map<FastifyRequest, number>();
  let lastArrival = 0;
  const done = (request: FastifyRequest) => void started.delete(request);
  app.addHook("onRequest", (request, _reply, next) => {
    lastArrival = performance.now();
    started.set(request, lastArrival);
    next();
  });
  app.addHook("onSend", (request, _reply, payload, next) => {
    done(request);
    next(null, payload);
  });
  // Answers that never reach onSend (aborted, timed out): whichever comes, the request is done.
  app.addHook("onResponse", (request, _reply, next) => {
    done(request);
    next();
  });
  app.addHook("onRequestAbort", (request, next) => {
    done(request);
    next();
  });

  const count = () => {
    const now = performance.now();
    for (const [request, at] of started) if (now - at > COUNTED_MS) started.delete(request);
    return started.size;
  };
  return {
    count,
    arrived: () => void (lastArrival = performance.now()),
    async quiet(stopped) {
      for (;;) {
        const wait = QUIET_MS - (performance.now() - lastArrival);
        await new Promise((resolve) => setTimeout(resolve, Math.max(wait, YIELD_MS)).unref());
        if (stopped()) return false;
        if (count() === 0 && performance.now() - lastArrival >= QUIET_MS) return true;
      }
    },
  };
}
