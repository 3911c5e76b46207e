import { fail } from "@contracts/envelope";
import { serverMessages } from "@contracts/messages";
import type { FastifyReply } from "fastify";
import { sendErrorAnswer } from "../../http/encode-answer.js";

const MESSAGES = {
  400: serverMessages.badAddress,
  403: serverMessages.forbidden,
  404: serverMessages.fileNotFound,
  412: serverMessages.preconditionFailed,
  416: serverMessages.rangeNotSatisfiable,
} as const;

/**
 * A media request that cannot be served gets the site's envelope with a Chinese message, like
 * every other error (the file's type and download name, set before the checks, are dropped).
 */
export function sendMediaError(reply: FastifyReply, status: keyof typeof MESSAGES): FastifyReply {
  reply.removeHeader("content-disposition");
  return sendErrorAnswer(reply, status, fail(MESSAGES[status]));
}
