import { homeResponseSchema } from "@contracts/home";
import { ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppServices } from "../../services.js";

export const homeRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/forntend/index",
    {
      schema: {
        tags: ["frontend"],
        summary: "首页 (carousel, partner logos, search options, recommendations, charts, latest lists)",
        response: { 200: homeResponseSchema },
      },
    },
    async () => {
      const { data, ...seo } = await services.home.page();
      return { ...ok(data), ...seo };
    },
  );
};
