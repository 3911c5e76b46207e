import { sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { DatabaseHandle } from "../../db/open.js";
import { declareAccess } from "../../http/auth.js";

/** Liveness plus a database round trip, for load balancers and the start script. */
export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, opts) => {
  declareAccess(app, "public");
  app.get("/healthz", async (request, reply) => {
    try {
      await opts.database.db.execute(sql`select 1`);
      return { status: "ok", database: opts.database.engine };
    } catch (err) {
      request.log.error({ err }, "health check: database unreachable");
      // Like every 5xx, it names its request (ADR 0044).
      return reply.code(503).send({ status: "unavailable", database: opts.database.engine, requestId: request.id });
    }
  });
};
