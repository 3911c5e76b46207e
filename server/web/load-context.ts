import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppServices } from "../services.js";

/**
 * What the app adds to every SSR request's context (web/app/lib/app-context.ts): its
 * in-process services (server/services.ts), which loaders call directly instead of making
 * HTTP requests to ourselves.
 */
export interface ExtraLoadContext {
  services: AppServices;
}

export type GetLoadContext = (
  request: FastifyRequest,
  reply: FastifyReply,
) => ExtraLoadContext | Promise<ExtraLoadContext>;
