import { homeResponseSchema } from "@contracts/home";
import { ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { answerFor, sendShared } from "../../http/shared-answer.js";
import type { AppServices } from "../../services.js";

export const homeRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/forntend/index",
    {
      config: { access: "public" },
      schema: {
        tags: ["frontend"],
        summary: "首页 (carousel, partner logos, search options, recommendations, charts, latest lists)",
        response: { 200: homeResponseSchema },
      },
    },
    async (request, reply) => {
      const page = await services.home.page();
      // Checked, serialized and compressed once per fill of the home service's cache.
      const answer = answerFor(page, homeResponseSchema, ({ data, ...seo }) => ({ ...ok(data), ...seo }));
      return sendShared(request, reply, answer);
    },
  );
};
