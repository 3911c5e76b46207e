import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppServices } from "../services.js";

/** What the app adds to every loader's context: its in-process services (server/services.ts). */
export interface ExtraLoadContext {
  services: AppServices;
}

/**
 * The one declaration of what SSR loaders receive as `context`: loaders call the services
 * directly instead of making HTTP requests to ourselves.
 */
declare module "react-router" {
  interface AppLoadContext extends ExtraLoadContext {
    /** This response's CSP script nonce ("" in development, where no CSP is sent). */
    cspNonce: string;
  }
}

export type GetLoadContext = (
  request: FastifyRequest,
  reply: FastifyReply,
) => ExtraLoadContext | Promise<ExtraLoadContext>;
