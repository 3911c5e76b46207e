import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";

/** A returning visitor named `name`: its id and the signed `vid` cookie the app gave it. */
export function testVisitor(app: FastifyInstance, name: string): { id: string; cookie: string } {
  const id = createHash("sha256").update(name).digest("base64url").slice(0, 22);
  return { id, cookie: `vid=${app.services.visitors.cookieValue(id)}` };
}
