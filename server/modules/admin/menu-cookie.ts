import type { AdminRoleCode } from "@contracts/admin-texts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ADMIN_SESSION_TTL_MS, hashToken, type SessionService } from "../accounts/session-service.js";

/**
 * The cookie that lets the server draw a signed-in 超级管理员's menu in the first paint of a
 * /panda page (ADR 0078). The token stays in localStorage and is never sent with a page: the
 * cookie holds the hash the sessions table keys the session by, which no API call takes as a
 * token. The server looks the session up at render and uses only its admin's role, so a
 * logged-out, expired, disabled or demoted admin's cookie draws the menu every admin sees.
 */
export const ADMIN_MENU_COOKIE = "panda_menu";
/** Sent with the back office's pages only (not /pandaadmin/…, not the API). */
const PATH = "/panda";
const HASH = /^[0-9a-f]{64}$/u;

const options = (request: FastifyRequest) => ({ path: PATH, httpOnly: true, sameSite: "strict" as const, secure: request.protocol === "https" });

/** After a login or a session check: names this admin session for the pages' render, as long as it lives. */
export function setAdminMenuCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(ADMIN_MENU_COOKIE, hashToken(token), { ...options(request), maxAge: ADMIN_SESSION_TTL_MS / 1000 });
}

/** After a logout. */
export function clearAdminMenuCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(ADMIN_MENU_COOKIE, options(request));
}

/** The role of the enabled admin whose live session the request's cookie names, else null. */
export async function adminRoleOf(request: FastifyRequest, sessions: Pick<SessionService, "adminByTokenHash">): Promise<AdminRoleCode | null> {
  const value = request.cookies[ADMIN_MENU_COOKIE];
  if (!value || !HASH.test(value)) return null;
  const admin = await sessions.adminByTokenHash(value);
  return admin?.status === 1 ? admin.role : null;
}
