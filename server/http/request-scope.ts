/**
 * The request a piece of code runs for, without passing it down (ADR 0044): services log with
 * the logger they were built with, and that logger writes through the current request's logger
 * (its `reqId`) while the request is being answered, through the root logger otherwise.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { REQUEST_ID_HEADER } from "./request-id.js";

interface Scope {
  log: FastifyBaseLogger;
  res: ServerResponse;
}

const current = new AsyncLocalStorage<Scope>();

/**
 * First hook of every request: `X-Request-Id` on the answer, and the rest of the request (hooks,
 * handler, the services it calls) runs inside its scope.
 */
export function registerRequestScope(app: FastifyInstance) {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    current.run({ log: request.log, res: reply.raw }, done);
  });
}

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
export type ScopedLogger = Pick<FastifyBaseLogger, Level>;

/**
 * A logger for services: each line goes to the current request's logger, or to `root` outside
 * a request and once the answer has ended (a timer a request happened to start, such as the
 * next batch of view counts, must not carry that request's id forever).
 */
export function requestScopedLogger(root: FastifyBaseLogger): ScopedLogger {
  const target = (): FastifyBaseLogger => {
    const scope = current.getStore();
    return scope && !scope.res.writableEnded ? scope.log : root;
  };
  const level =
    (name: Level) =>
    (...args: unknown[]) => {
      const logger = target();
      (logger[name] as (...a: unknown[]) => void).apply(logger, args);
    };
  return {
    fatal: level("fatal"),
    error: level("error"),
    warn: level("warn"),
    info: level("info"),
    debug: level("debug"),
    trace: level("trace"),
  } as ScopedLogger;
}
