import type { FastifyReply, FastifyRequest } from "fastify";
import { visitorId } from "../http/visitor.js";
import { adminRoleOf } from "../modules/admin/menu-cookie.js";
import type { AppServices } from "../services.js";
import type { ExtraLoadContext } from "./load-context.js";

/** Each page request's loader context: the services, its visitor and its logger. */
export function requestLoadContext(services: AppServices) {
  return (request: FastifyRequest, reply: FastifyReply): ExtraLoadContext => ({
    services,
    visitorId: () => visitorId(request, reply),
    adminRole: () => adminRoleOf(request, services.sessions),
    logError: (err) => request.log.error({ err }, "page failed"),
    requestId: String(request.id),
  });
}
