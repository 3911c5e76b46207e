import { ok } from "@contracts/envelope";
import { navItemSchema } from "@contracts/navigation";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../../services.js";

export const catalogRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/forntend/gettopnav",
    {
      schema: {
        tags: ["frontend"],
        summary: "顶部导航 (categories as menu items with submenus)",
        response: {
          200: z.object({ code: z.literal([0, 1]), msg: z.string(), time: z.number(), data: z.array(navItemSchema) }),
        },
      },
    },
    async () => ok(await services.navigation.topNav()),
  );
};
