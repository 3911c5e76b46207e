import { homeDataSchema, homeResponseSchema } from "@contracts/home";
import { ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { jsonWith, reusedJson, sendJson } from "../../http/json-splice.js";
import type { AppServices } from "../../services.js";

const envelopeFields = homeResponseSchema.omit({ data: true });

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
    async (_request, reply) => {
      const { data, ...seo } = await services.home.page();
      // The cached home data is serialized once per cache fill, not per request.
      const { data: _, ...envelope } = ok(null);
      return sendJson(reply, jsonWith({ ...envelope, ...seo }, envelopeFields, { data: reusedJson(data, homeDataSchema) }));
    },
  );
};
