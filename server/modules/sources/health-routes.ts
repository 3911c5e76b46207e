import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { sourceHealthListSchema } from "@contracts/source-health";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { declareAccess } from "../../http/auth.js";
import type { AppServices } from "../../services.js";

/** The back office's view of the external sources' health (the screen comes with the back-office issue). */
export const sourceHealthRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "admin");
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/pandaadmin/sources/health",
    {
      schema: {
        tags: ["admin"],
        summary: "外部来源健康状况 (成功率、延迟、最近错误、熔断状态)",
        response: { 200: envelope(sourceHealthListSchema) },
      },
    },
    async () => ok({ sources: services.sourceHealth.list() }),
  );
};
