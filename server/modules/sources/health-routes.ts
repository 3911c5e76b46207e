import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { sourceCodeParamsSchema } from "@contracts/source-admin";
import { sourceCanaryRunSchema, sourceHealthListSchema } from "@contracts/source-health";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { notFound } from "../../errors.js";
import { auditActor } from "../audit/service.js";
import { declareAccess } from "../../http/auth.js";
import type { AppServices } from "../../services.js";
import { canaryView, withCanaries } from "./canary/view.js";
import { UnknownSourceError } from "./canary/service.js";

/** The back office's view of the external sources' health and canaries (ADR 0049). */
export const sourceHealthRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "admin");
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/pandaadmin/sources/health",
    {
      schema: {
        tags: ["admin"],
        summary: "外部来源健康状况 (成功率、延迟、最近错误、熔断状态、巡检结果)",
        response: { 200: envelope(sourceHealthListSchema) },
      },
    },
    async () => ok({ sources: await withCanaries(services.sourceHealth.list(), services.canaries) }),
  );

  api.post(
    "/api/pandaadmin/sources/:code/canary",
    {
      schema: {
        tags: ["admin"],
        summary: "立即检测: 对该来源跑一次巡检 (搜索、榜单/分类、播放与音频开头)",
        params: sourceCodeParamsSchema,
        response: { 200: envelope(sourceCanaryRunSchema) },
      },
    },
    async (request) => {
      try {
        const row = await services.canaries.run(request.params.code, auditActor(request));
        return ok({ code: row.source, canary: canaryView(row)! });
      } catch (err) {
        if (err instanceof UnknownSourceError) throw notFound(`未知或未启用的来源：${request.params.code}`);
        throw err;
      }
    },
  );
};
