/**
 * GET /metrics in Prometheus's text format (ADR 0044): requests per route, caches, sources,
 * the database pool, background work, and the process (event-loop delay, memory). Not public:
 * `access.ts` says who may read it; anyone else gets the ordinary 404.
 */
import type { FastifyInstance } from "fastify";
import { Registry } from "prom-client";
import type { Config } from "../../config.js";
import { poolStatsOf } from "../../db/pool-stats.js";
import type { DatabaseHandle } from "../../db/types.js";
import type { AppServices } from "../../services.js";
import { metricsAccess } from "./access.js";
import { registerAppMetrics } from "./app-metrics.js";
import { registerHttpMetrics } from "./http-metrics.js";
import { processMetrics } from "./process-metrics.js";

export interface MetricsOptions {
  services: AppServices;
  database: DatabaseHandle;
  metrics: Config["metrics"];
}

/** Registered on the app itself (not in a plugin scope): the request hook must see every route. */
export function registerMetrics(app: FastifyInstance, { services, database, metrics }: MetricsOptions) {
  // Nobody may read them: no route, and no work per request either.
  if (metrics.allow.length === 0 && !metrics.token) return;
  const registry = new Registry();
  registerHttpMetrics(app, registry);
  registerAppMetrics(registry, {
    caches: services.caches,
    sourceHealth: services.sourceHealth,
    canaries: services.canaries,
    bus: services.bus,
    db: database.db,
    engine: database.engine,
    pool: poolStatsOf(database),
  });
  const allowed = metricsAccess(metrics);
  const both = [processMetrics(), registry];

  app.get(
    "/metrics",
    {
      // Its own guard below: the auth seam's levels are about members and admins, not scrapers.
      config: { access: "public" },
      onRequest: async (request, reply) => {
        if (!allowed(request)) return reply.callNotFound();
      },
    },
    async (_request, reply) => {
      const texts = await Promise.all(both.map((r) => r.metrics()));
      return reply.type(processMetrics().contentType).header("cache-control", "no-store").send(texts.join("\n"));
    },
  );
}
