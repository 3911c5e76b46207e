import type { FastifyReply, FastifyRequest } from "fastify";
import { visitorFromCookieHeader } from "../modules/catalog/visitors.js";

/** The request's anonymous visitor id; a new visitor gets its `vid` cookie on this reply. */
export function visitorId(request: FastifyRequest, reply: FastifyReply): string {
  const visitor = visitorFromCookieHeader(request.headers.cookie, request.protocol === "https");
  if (visitor.setCookie) reply.header("set-cookie", visitor.setCookie);
  return visitor.id;
}
