import { accountMessages, sessionUserSchema } from "@contracts/accounts";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../../services.js";

/** The browser sends its localStorage token as `Authorization: Bearer …` (or a `token` header). */
export function bearerToken(request: FastifyRequest): string | undefined {
  const auth = request.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim() || undefined;
  const header = request.headers.token;
  return typeof header === "string" && header ? header : undefined;
}

export const accountRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const { sessions } = services;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/user/isloging",
    {
      schema: {
        tags: ["user"],
        summary: "当前登录用户 (session check)",
        security: [{ bearer: [] }],
        response: { 200: envelope(sessionUserSchema) },
      },
    },
    async (request) => ok(await sessions.currentUser(bearerToken(request))),
  );

  api.post(
    "/api/user/logout",
    {
      schema: { tags: ["user"], summary: "退出登录", security: [{ bearer: [] }], response: { 200: envelope(z.null()) } },
    },
    async (request) => {
      await sessions.logout(bearerToken(request));
      return ok(null, accountMessages.logoutOk);
    },
  );
};
