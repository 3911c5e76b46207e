import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppServices } from "../services.js";

/** What the app adds to every loader's context: its in-process services (server/services.ts). */
export interface ExtraLoadContext {
  services: AppServices;
  /**
   * The request's visitor id, read the one way the API reads it (server/http/visitor.ts): a new
   * visitor's signed cookie goes out on this response. Null when nothing should be counted.
   */
  visitorId(): Promise<string | null>;
  /**
   * Logs an unexpected error of this request (a loader's, or rendering's) at error level with
   * the request id and the stack; the visitor only sees the page's generic text.
   */
  logError(err: unknown): void;
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
