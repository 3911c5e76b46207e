import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * A request counts from its arrival until its answer is handed over (onSend): the transfer of a
 * long answer (an hour-long mix streaming) is not work of this thread. Past this age a request
 * no longer counts anyway (one whose hooks never ran to the end must not hold work back forever).
 */
const COUNTED_MS = 10_000;
/** Quiet: nothing in flight and nothing arrived for this long (the next of a burst is near). */
export const QUIET_MS = 25;

/** Whether the server is busy with requests: for work that must wait for a quiet moment. */
export interface RequestsInFlight {
  /** Requests being worked on now. */
  count(): number;
  /** Resolves once nothing is in flight and nothing arrived for QUIET_MS; false if `stopped()` said so first. */
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
    async quiet(stopped) {
      for (;;) {
        if (stopped()) return false;
        const wait = QUIET_MS - (performance.now() - lastArrival);
        if (count() === 0 && wait <= 0) return true;
        await new Promise((resolve) => setTimeout(resolve, Math.max(wait, QUIET_MS)).unref());
      }
    },
  };
}
