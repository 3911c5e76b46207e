import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { fail } from "@contracts/envelope";
import { serverMessages } from "@contracts/messages";
import { isDatabaseUnavailable } from "@contracts/service-unavailable";
import { AppError } from "../errors.js";
import { sendErrorAnswer } from "./encode-answer.js";

const CJK = /[\u3400-\u9fff]/;

/** Fastify's own 4xx errors that have a Chinese message of ours. */
const statusMessages: Record<number, string> = {
  400: serverMessages.badRequest,
  403: serverMessages.forbidden,
  404: serverMessages.notFound,
  413: serverMessages.payloadTooLarge,
  415: serverMessages.unsupportedMediaType,
  429: serverMessages.tooManyRequests,
};

/**
 * A 5xx envelope names its request (ADR 0044): the spec's four fields stay as they are, and
 * `requestId` is the `reqId` of the request's log lines (and its `X-Request-Id` header).
 */
export function withRequestId<T extends object>(body: T, requestId: string): T & { requestId: string } {
  return { ...body, requestId };
}

/**
 * Every error becomes the API envelope with a Chinese message and a proper status:
 * schema failures 400 with the rule's own message (contracts carry the spec's texts),
 * AppError its status and message, other 4xx a generic text, the database out of reach a 503
 * (ADR 0040), anything else a logged 500.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation.find((v) => CJK.test(v.message ?? ""));
      return sendErrorAnswer(reply, 400, fail(first?.message ?? serverMessages.badRequest));
    }
    if (error instanceof AppError) {
      const body = fail(error.message, error.data);
      return sendErrorAnswer(reply, error.status, error.status >= 500 ? withRequestId(body, request.id) : body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, "client error");
      return sendErrorAnswer(reply, status, fail(statusMessages[status] ?? serverMessages.badRequest));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      return sendErrorAnswer(reply.header("retry-after", "5"), 503, fail(serverMessages.serviceUnavailable));
    }
    request.log.error({ err: error }, "request failed");
    return sendErrorAnswer(reply, 500, withRequestId(fail(serverMessages.internal), request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    const apiLike = request.url.startsWith("/api/") || request.url.startsWith("/pandaadmin/");
    sendErrorAnswer(reply, 404, fail(apiLike ? serverMessages.apiNotFound : serverMessages.notFound));
  });
}
