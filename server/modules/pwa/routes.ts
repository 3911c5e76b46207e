import type { FastifyPluginAsync } from "fastify";
import { declareAccess } from "../../http/auth.js";
import { sendShared } from "../../http/shared-answer.js";
import type { AppServices } from "../../services.js";

/**
 * Always asked again (an ETag makes that a 304): the worker must reach its next version on the
 * next load, the manifest follows the site title, the offline page goes with the worker.
 */
const NO_CACHE = "no-cache";

/** The installable site (issue 24, ADR 0066): manifest, service worker, offline page. */
export const pwaRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "public");
  const { pwa } = services;
  const hide = { schema: { hide: true } };

  app.get("/manifest.webmanifest", hide, async (request, reply) => sendShared(request, reply.header("cache-control", NO_CACHE), await pwa.manifest()));
  app.get("/sw.js", hide, async (request, reply) =>
    // Scope /: the worker sits at the root, so it may control every page.
    sendShared(request, reply.header("cache-control", NO_CACHE).header("service-worker-allowed", "/"), pwa.worker),
  );
  app.get("/offline.html", hide, async (request, reply) => sendShared(request, reply.header("cache-control", NO_CACHE), pwa.offlinePage));
  app.get("/offline.js", hide, async (request, reply) => sendShared(request, reply.header("cache-control", NO_CACHE), pwa.offlineScript));
};
