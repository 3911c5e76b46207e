import { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { isWarmUp } from "../web/warm-up.js";

/** Requests whose lines would only be noise: static assets, the health probe, the server's own warm-up. */
function quiet(request: FastifyRequest): boolean {
  return request.url.startsWith("/assets/") || request.url === "/healthz" || isWarmUp(request);
}

/**
 * One access line a request (ADR 0067): "request completed" carries the request (method, URL,
 * client address), the status and the time, where Fastify writes two lines, "incoming request"
 * and "request completed", two serialisations and writes on every request's path. The incoming
 * line is still there at LOG_LEVEL=debug, for finding a request that never completes.
 */
export class RequestLog extends LogController {
  constructor() {
    super({ disableRequestLogging: quiet });
  }

  override incomingRequest(request: FastifyRequest): void {
    if (!quiet(request)) request.log.debug({ req: request }, "incoming request");
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (quiet(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, "request errored");
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}
