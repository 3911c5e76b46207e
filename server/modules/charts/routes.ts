import { getRankAnswerSchema, getRankQuerySchema } from "@contracts/charts";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppServices } from "../../services.js";

/** GET /api/forntend/getrank: one chart for the panel's site/type/period switches. */
export const chartRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const { charts } = services;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/forntend/getrank",
    {
      config: { access: "public" },
      schema: {
        tags: ["frontend"],
        summary: "榜单 (one chart: site djuu|172minx|vvvdj|local, type mix|single, period day|week|month|quarter, board plays|site)",
        description:
          "Singles have no day chart: type=single&period=day answers 400. board=plays (default) is our qualified plays " +
          "(the spec's answer); board=site is the site's own chart as last collected (board, website, and lines linked to " +
          "our catalogue or to the source page), not for site=local.",
        querystring: getRankQuerySchema,
        response: { 200: envelope(getRankAnswerSchema) },
      },
    },
    async (request) => ok(await charts.getRank(request.query)),
  );
};
