import type { ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";

/**
 * Responses that may stream for an hour (media files): shutdown gives them a bounded grace
 * (SHUTDOWN_STREAM_GRACE_MS), then cuts them. A player whose stream is cut asks again with a
 * Range from where it was, and another instance answers (ADR 0041).
 */
export interface LongStreams {
  /** Follows a response until it closes. */
  track(res: ServerResponse): void;
  /** Responses still streaming. */
  readonly open: number;
  /** Ends every one of them at once (their sockets are destroyed); returns how many. */
  cut(): number;
}

export function longStreams(): LongStreams {
  const open = new Set<ServerResponse>();
  return {
    track(res) {
      if (res.writableFinished || res.destroyed) return;
      open.add(res);
      res.once("close", () => open.delete(res));
    },
    get open() {
      return open.size;
    },
    cut() {
      const n = open.size;
      for (const res of open) res.destroy();
      open.clear();
      return n;
    },
  };
}

export interface ShutdownOptions {
  app: FastifyInstance;
  logger: Pick<FastifyInstance["log"], "info" | "warn" | "error">;
  /** The whole shutdown's bound (SHUTDOWN_TIMEOUT_MS): past it the process exits with 1. */
  timeoutMs: number;
  /** Media streams still open this long after the signal are cut (SHUTDOWN_STREAM_GRACE_MS). */
  streamGraceMs: number;
  /** After the app has closed (its onClose hooks wrote the batched views and counters). */
  afterClose: () => Promise<void>;
  exit?: (code: number) => void;
}

/**
 * SIGTERM/SIGINT, in order:
 * 1. The server stops accepting connections; idle keep-alive connections are closed (and again
 *    every 100 ms, as busy ones finish); a request arriving on a busy one is still answered,
 *    with `Connection: close` (Fastify's return503OnClosing is off: behind nginx a 503 to a
 *    POST would reach the visitor, while a refused connection is tried on another instance).
 * 2. Requests in flight finish; media streams get `streamGraceMs`, then are cut.
 * 3. The app's onClose hooks stop background work and write the batched views and counters.
 * 4. `afterClose` (the database), then exit 0. Past `timeoutMs` from the signal: exit 1.
 */
export function gracefulShutdown(o: ShutdownOptions): (signal: string) => Promise<void> {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let closing = false;
  return async (signal) => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    o.logger.info({ signal, streams: o.app.longStreams.open }, "shutting down: finishing in-flight requests");
    const force = setTimeout(() => {
      o.logger.warn({ ms: Date.now() - started }, "shutdown timed out; exiting");
      exit(1);
    }, o.timeoutMs);
    force.unref();
    // A keep-alive socket whose answer finishes during shutdown becomes idle after the one
    // sweep server.close() makes; keep sweeping so it doesn't hold the exit for its timeout.
    const sweeper = setInterval(() => o.app.server.closeIdleConnections(), 100);
    const grace = setTimeout(() => {
      const cut = o.app.longStreams.cut();
      if (cut > 0) o.logger.info({ streams: cut, graceMs: o.streamGraceMs }, "media streams cut after their grace");
    }, o.streamGraceMs);
    try {
      await o.app.close();
      await o.afterClose();
      o.logger.info({ ms: Date.now() - started }, "shut down cleanly");
      exit(0);
    } catch (err) {
      o.logger.error({ err }, "shutdown failed");
      exit(1);
    } finally {
      clearInterval(sweeper);
      clearTimeout(grace);
      clearTimeout(force);
    }
  };
}
