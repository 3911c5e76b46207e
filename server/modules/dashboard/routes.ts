import { dashboardSchema, dashboardSeriesQuerySchema, dashboardSeriesSchema } from "@contracts/dashboard";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { declareAccess } from "../../http/auth.js";
import type { AppServices } from "../../services.js";

/** The back office's dashboard (ADR 0032): any enabled admin, editors included. */
export const dashboardRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "admin");
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["admin"];

  api.get(
    "/api/pandaadmin/dashboard",
    {
      schema: {
        tags,
        summary: "控制台: 套曲、用户、今日播放、今日下载 (各含今日与昨日, 北京时间), 系统信息, 来源健康, 最近管理员登录; 数字约 10 秒更新一次",
        response: { 200: envelope(dashboardSchema) },
      },
    },
    async () => ok(await services.dashboard.dashboard()),
  );

  api.get(
    "/api/pandaadmin/dashboard/series",
    {
      schema: {
        tags,
        summary: "控制台曲线: 每日 (北京时间) 有效播放、注册与搜索次数, 最近 days 天",
        querystring: dashboardSeriesQuerySchema,
        response: { 200: envelope(dashboardSeriesSchema) },
      },
    },
    async (request) => ok(await services.dashboard.series(request.query.days)),
  );
};
