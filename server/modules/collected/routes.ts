import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import {
  collectedIndexQuerySchema,
  collectedMessages as m,
  collectedTableSchema,
  collectIdsBodySchema,
  deleteResultSchema,
  processResultSchema,
} from "@contracts/collected";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { declareAccess } from "../../http/auth.js";
import { auditActor } from "../audit/service.js";
import type { AppServices } from "../../services.js";

/**
 * The back office's collected data (issue 11, ADR 0024): process rows into the catalogue,
 * delete rows, list them. Starting collection and its jobs are the collector's routes.
 */
export const collectedRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "admin");
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["admin"];

  api.post(
    "/api/pandaadmin/collect/process",
    {
      schema: {
        tags,
        summary: "处理采集数据: 新建或更新对应的套曲/单曲 (同一来源编号只对应一条), 并标记为已处理; 每个编号单独给出结果",
        body: collectIdsBodySchema,
        response: { 200: envelope(processResultSchema) },
      },
    },
    async (request) => {
      const results = await services.collected.process(request.body.ids, { adminId: request.admin!.id, actor: auditActor(request) });
      const processed = results.filter((r) => r.error === null).length;
      return ok({ results, processed, failed: results.length - processed }, m.processed);
    },
  );

  api.post(
    "/api/pandaadmin/collect/delete",
    {
      schema: {
        tags,
        summary: "删除采集数据 (已生成的套曲/单曲保留)",
        body: collectIdsBodySchema,
        response: { 200: envelope(deleteResultSchema) },
      },
    },
    async (request) => ok({ deleted: await services.collected.delete(request.body.ids, auditActor(request)) }, m.deleted),
  );

  api.get(
    "/api/pandaadmin/collect/index",
    {
      schema: {
        tags,
        summary: "采集数据列表 (标题搜索、状态筛选、filter/op、排序与分页, 返回 {total, rows})",
        querystring: collectedIndexQuerySchema,
        // The bare table answer, as every admin table (ADMIN-API.md); errors keep the envelope.
        response: { 200: collectedTableSchema },
      },
    },
    async (request) => services.collected.table(request.query),
  );
};
