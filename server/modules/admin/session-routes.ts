import { adminMessages, sessionAdminSchema } from "@contracts/accounts";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { bearerToken, declareAccess } from "../../http/auth.js";
import type { AppServices } from "../../services.js";
import { clearAdminMenuCookie, setAdminMenuCookie } from "./menu-cookie.js";

/**
 * The back office's session calls. Every route here is `admin` (the admin issue adds the
 * public `POST /api/pandaadmin/login` with `config: { access: "public" }`).
 */
export const adminSessionRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "admin");
  const api = app.withTypeProvider<ZodTypeProvider>();

  // What the /panda guard asks on entering the back office (web/app/session/api.ts).
  api.get(
    "/api/pandaadmin/check",
    {
      // Answers the first-start account too: its mustChangePassword opens the back office's dialog.
      config: { beforePasswordChange: true },
      schema: { tags: ["admin"], summary: "当前登录管理员 (admin session check)", response: { 200: envelope(sessionAdminSchema) } },
    },
    async (request, reply) => {
      // Sessions begun before the menu cookie existed, or in another tab, get it here (ADR 0078).
      const token = bearerToken(request);
      if (token) setAdminMenuCookie(request, reply, token);
      return ok(request.admin!);
    },
  );

  // The spec's admin logout (section 7): ends this admin session only.
  api.post(
    "/pandaadmin/index/logout",
    { config: { beforePasswordChange: true }, schema: { tags: ["admin"], summary: "管理员退出登录", response: { 200: envelope(z.null()) } } },
    async (request, reply) => {
      await services.sessions.logoutAdmin(bearerToken(request));
      clearAdminMenuCookie(request, reply);
      return ok(null, adminMessages.logoutOk);
    },
  );
};
