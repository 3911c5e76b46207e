import type { AdminRoleCode } from "@contracts/admin-texts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppServices } from "../services.js";

/**
 * What the app adds to every SSR request's context (web/app/lib/app-context.ts): its
 * in-process services (server/services.ts), which loaders call directly instead of making
 * HTTP requests to ourselves.
 */
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
  /**
   * The role of the admin whose live session the request's back-office cookie names, or null
   * (ADR 0078): the admin layout draws that role's menu in the first paint. Null for a kept page.
   */
  adminRole(): Promise<AdminRoleCode | null>;
  /** The request's id (ADR 0044), shown on a 5xx page; empty for a kept page's render. */
  requestId: string;
}

export type GetLoadContext = (
  request: FastifyRequest,
  reply: FastifyReply,
) => ExtraLoadContext | Promise<ExtraLoadContext>;
