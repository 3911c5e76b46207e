import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { declaredSchema, encodeAnswer, errorAnswerSchema } from "./encode-answer.js";
import { takeSharedAnswer } from "./shared-answer.js";

/** A registered route as the answer check saw it (HEAD twins left out). */
export interface CheckedRoute {
  method: string;
  url: string;
  /** The route's `schema.response`, if it declares one. */
  response: unknown;
}

/**
 * JSON answers that are not ours to describe, by route: the OpenAPI document, made by
 * @fastify/swagger from the routes' schemas (its shape is OpenAPI 3.1's, not a zod schema's).
 */
export const FOREIGN_JSON_ROUTES: ReadonlySet<string> = new Set(["/api/docs/json"]);
/**
 * The pages' handler (server/web, registered with the web build only): its JSON is React Router's
 * own protocol (`/__manifest`, streamed, asked by the browser as it moves between pages).
 */
const PAGES_ROUTE = "/*";

/** Why an answer failed its check: the route, the status and what did not match. */
export class AnswerCheckError extends Error {}

/**
 * Tests' check that every JSON answer is what its route declares (ADR 0057): an onSend hook,
 * ahead of compression, that reads each `application/json` answer (kept bytes too, decoded from
 * gzip or br), decodes it with the route's response schema for its status (the error envelope's
 * for a 4xx/5xx the route declares nothing for) and requires that encoding it again gives the
 * same text, i.e. the bytes are exactly what the route serializer would have sent. A kept answer
 * must also have been encoded through that very schema. A mismatch throws: the request becomes
 * a 500 and the error handler logs the route and the zod issues. Also records every route
 * (`onRoute`) for the test that each JSON route declares its success schema.
 */
export function registerAnswerCheck(app: FastifyInstance): CheckedRoute[] {
  const routes: CheckedRoute[] = [];
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (method !== "HEAD") routes.push({ method, url: route.url, response: route.schema?.response });
    }
  });
  app.addHook("onSend", async (request, reply, payload) => {
    try {
      checkAnswer(request, reply, payload);
    } catch (err) {
      // Loud even in a test whose app logs nothing: the test's output names the route and issue.
      if (err instanceof AnswerCheckError) console.error(`answer check: ${err.message}`);
      throw err;
    }
    return payload;
  });
  return routes;
}

function checkAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const kept = takeSharedAnswer(reply);
  const type = String(reply.getHeader("content-type") ?? "");
  if (!type.startsWith("application/json") || payload == null || reply.statusCode === 304) return;
  const route = request.routeOptions.url ?? "";
  if (FOREIGN_JSON_ROUTES.has(route) || route === PAGES_ROUTE) return;
  const where = `${request.method} ${request.routeOptions.url ?? request.url} answered ${reply.statusCode}`;
  const text = answerText(payload, reply.getHeader("content-encoding"), where);
  const status = reply.statusCode;
  const schema: z.ZodType | undefined = declaredSchema(request.routeOptions.schema?.response, status) ?? (status >= 400 ? errorAnswerSchema : undefined);
  if (!schema) throw new AnswerCheckError(`${where}: JSON without a declared response schema for ${status}`);
  if (kept && kept.schema !== schema) throw new AnswerCheckError(`${where}: a kept answer encoded through another schema than the route declares`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AnswerCheckError(`${where}: not JSON: ${text.slice(0, 200)}`);
  }
  const decoded = schema.safeDecode(value);
  if (!decoded.success) {
    const issues = decoded.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new AnswerCheckError(`${where}: does not match its response schema: ${issues.join("; ")}`);
  }
  const again = encodeAnswer(schema, decoded.data);
  if (again !== text) throw new AnswerCheckError(`${where}: not the bytes its schema encodes (${firstDifference(text, again)})`);
}

function answerText(payload: unknown, encoding: unknown, where: string): string {
  if (typeof payload === "string") return payload;
  if (!Buffer.isBuffer(payload)) throw new AnswerCheckError(`${where}: a JSON answer sent as a stream cannot be checked`);
  if (encoding === "br") return brotliDecompressSync(payload).toString();
  if (encoding === "gzip") return gunzipSync(payload).toString();
  return payload.toString();
}

function firstDifference(sent: string, encoded: string): string {
  let i = 0;
  while (i < sent.length && sent[i] === encoded[i]) i++;
  return `sent …${sent.slice(Math.max(0, i - 40), i + 40)}… but the schema gives …${encoded.slice(Math.max(0, i - 40), i + 40)}…`;
}
