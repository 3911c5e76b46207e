import { sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DatabaseHandle } from "../../db/open.js";
import { declareAccess } from "../../http/auth.js";

const engine = z.enum(["pglite", "postgres"]);
const healthSchema = z.object({ status: z.literal("ok"), database: engine });
// Like every 5xx, it names its request (ADR 0044); not the API envelope: load balancers read `status`.
const unavailableSchema = z.object({ status: z.literal("unavailable"), database: engine, requestId: z.string() });

/** Liveness plus a database round trip, for load balancers and the start script. */
export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, opts) => {
  declareAccess(app, "public");
  app.withTypeProvider<ZodTypeProvider>().get(
    "/healthz",
    { schema: { response: { 200: healthSchema, 503: unavailableSchema } } },
    async (request, reply) => {
      try {
        await opts.database.db.execute(sql`select 1`);
        return { status: "ok" as const, database: opts.database.engine };
      } catch (err) {
        request.log.error({ err }, "health check: database unreachable");
        return reply.code(503).send({ status: "unavailable", database: opts.database.engine, requestId: request.id });
      }
    },
  );
};
