import type { FastifyReply } from "fastify";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { ResponseSerializationError } from "fastify-type-provider-zod";
import { z } from "zod";

export const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The one way a JSON answer is made (ADR 0057): the value encoded through the zod schema that
 * describes it (checked, unknown keys dropped, codecs applied), then JSON.stringify. The route
 * serializer (`answerSerializerCompiler`), the kept answers (`SharedAnswer.json`), the error
 * envelopes (`sendErrorAnswer`, `early-errors.ts`) and the search stream's frames all call it.
 * Throws the schema's ZodError when the value does not match.
 */
export function encodeAnswer(schema: z.ZodType, value: unknown): string {
  return JSON.stringify(schema.encode(value));
}

/**
 * An error answer: the envelope with code 0, and a `requestId` on a 5xx (ADR 0044). `data` is
 * loose on purpose: most errors carry null, a few carry what the page still needs (the view
 * beacon's 403 its current count, ADR 0053); each route's tests check those shapes.
 */
export const errorAnswerSchema = z.strictObject({
  code: z.literal(0),
  msg: z.string(),
  time: z.number(),
  data: z.unknown(),
  requestId: z.string().optional(),
});

/** A route's declared response schema for a status: exact code, then `4xx`-style, then `default`. */
export function declaredSchema(response: unknown, status: number): z.ZodType | undefined {
  if (!response || typeof response !== "object") return undefined;
  const table = response as Record<string, unknown>;
  const found = table[String(status)] ?? table[`${String(status)[0]}xx`] ?? table.default;
  return found instanceof z.ZodType ? found : undefined;
}

/** Fastify's serializer for answers of a status the route declares a schema for. */
export const answerSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  if (!(schema instanceof z.ZodType)) throw new Error(`${method} ${url}: a response schema must be a zod schema`);
  return (data) => {
    try {
      return encodeAnswer(schema, data);
    } catch (cause) {
      throw new ResponseSerializationError(method, url, { cause: cause as z.ZodError });
    }
  };
};

const encodeError = (payload: unknown) => encodeAnswer(errorAnswerSchema, payload);

/**
 * Sends an error envelope, encoded through `errorAnswerSchema` (the error handler, the not-found
 * handler, media and play errors). Routes declare their success schemas only; Fastify would
 * JSON.stringify an answer of any other status unchecked.
 */
export function sendErrorAnswer(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type(JSON_TYPE).serializer(encodeError).send(body);
}
