import { accountMessages, sessionUserSchema } from "@contracts/accounts";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { bearerToken } from "../../http/auth.js";
import type { AppServices } from "../../services.js";

export const accountRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const { sessions } = services;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/user/isloging",
    {
      config: { access: "user" },
      schema: {
        tags: ["user"],
        summary: "当前登录用户 (session check)",
        response: { 200: envelope(sessionUserSchema) },
      },
    },
    // The user guard has checked the member (401 请先登录 / 403 账号已被禁用 otherwise).
    async (request) => ok(request.user!),
  );

  // Public on purpose: logging out with a dead token still answers 退出成功 (the browser drops it).
  api.post(
    "/api/user/logout",
    {
      config: { access: "public" },
      schema: { tags: ["user"], summary: "退出登录", security: [{ bearer: [] }], response: { 200: envelope(z.null()) } },
    },
    async (request) => {
      await sessions.logoutUser(bearerToken(request));
      return ok(null, accountMessages.logoutOk);
    },
  );
};
