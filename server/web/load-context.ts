import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The one declaration of what SSR loaders receive as `context`.
 * Later issues add their in-process services here (catalog, search, ...), so loaders call
 * them directly instead of making HTTP requests to ourselves.
 */
declare module "react-router" {
  interface AppLoadContext {
    /** This response's CSP script nonce ("" in development, where no CSP is sent). */
    cspNonce: string;
  }
}

/** Everything in the load context except what registerWeb fills in itself. */
export type ExtraLoadContext = Omit<import("react-router").AppLoadContext, "cspNonce">;

export type GetLoadContext = (
  request: FastifyRequest,
  reply: FastifyReply,
) => ExtraLoadContext | Promise<ExtraLoadContext>;
