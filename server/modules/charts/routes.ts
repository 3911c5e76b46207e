import { getRankDataSchema, getRankQuerySchema } from "@contracts/charts";
import { ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDatabase } from "../../db/open.js";
import { chartsService } from "./service.js";

const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.literal([0, 1]), msg: z.string(), time: z.number(), data });

/** GET /api/forntend/getrank: one chart for the panel's site/type/period switches. */
export const chartRoutes: FastifyPluginAsync<{ db: AppDatabase }> = async (app, opts) => {
  const charts = chartsService(opts.db);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/forntend/getrank",
    {
      schema: {
        tags: ["frontend"],
        summary: "榜单 (one chart: site djuu|172minx|vvvdj|local, type mix|single, period day|week|month|quarter)",
        description: "Singles have no day chart: type=single&period=day answers 400.",
        querystring: getRankQuerySchema,
        response: { 200: envelope(getRankDataSchema) },
      },
    },
    async (request) => ok(await charts.getRank(request.query)),
  );
};
