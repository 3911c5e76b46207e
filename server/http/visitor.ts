import type { FastifyReply, FastifyRequest } from "fastify";
import { VISITOR_COOKIE } from "../modules/visitors/visitor-cookie.js";

const resolved = new WeakMap<FastifyRequest, Promise<string | null>>();

/**
 * The request's visitor id, the one way the API and the pages (through their load context)
 * read it: the id of a `vid` cookie we signed; else a new id, whose cookie goes out on this
 * reply (`Secure` when the request came over HTTPS, X-Forwarded-Proto counting behind
 * TRUST_PROXY). Null when the request's IP has had its share of new ids (rate-limits.ts):
 * the page or answer is served all the same, but nothing it would count is counted.
 */
export function visitorId(request: FastifyRequest, reply: FastifyReply): Promise<string | null> {
  let id = resolved.get(request);
  if (!id) {
    id = resolve(request, reply);
    resolved.set(request, id);
  }
  return id;
}

async function resolve(request: FastifyRequest, reply: FastifyReply): Promise<string | null> {
  const { services } = request.server;
  const known = services.visitors.verify(request.cookies[VISITOR_COOKIE]);
  if (known) return known;
  if (!(await request.server.newVisitorAllowed(request))) return null;
  const visitor = services.visitors.issue(request.protocol === "https");
  reply.header("set-cookie", visitor.setCookie);
  return visitor.id;
}

/** The id of a `vid` cookie we signed, or null: never issues one (a view beacon, ADR 0053). */
export function knownVisitorId(request: FastifyRequest): string | null {
  return request.server.services.visitors.verify(request.cookies[VISITOR_COOKIE]);
}
