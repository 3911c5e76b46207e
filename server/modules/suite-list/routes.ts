import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { adminTableMessages as t } from "@contracts/admin-table-texts";
import {
  suiteListMessages as m,
  suiteChannelsSchema,
  suiteIdParamsSchema,
  suiteIdsBodySchema,
  suiteIdsResultSchema,
  suiteStatusBodySchema,
  suiteTableAnswerSchema,
  suiteTableQuerySchema,
} from "@contracts/suite-list";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { declareAccess } from "../../http/auth.js";
import type { AppServices } from "../../services.js";
import { auditActor } from "../audit/service.js";

/**
 * The back office's suites (issue 12, ADR 0028): the table at the original's address (its
 * bare `{total, rows}`, ADMIN-API.md), deletes and enable/disable. Content: any enabled admin.
 */
export const suiteListRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "admin");
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["admin"];
  const suites = services.suiteList;

  api.get(
    "/pandaadmin/cms/archives/index",
    {
      schema: {
        tags,
        summary: "套曲列表 (FastAdmin 约定: search 编号或标题, filter/op JSON 字符串如 channel_id IN, sort 默认 id, order 默认 desc, offset, limit ≤ 100; model_id 2 套曲 / 1 单曲), 返回 {total, rows}",
        querystring: suiteTableQuerySchema,
        response: { 200: suiteTableAnswerSchema },
      },
    },
    async (request) => suites.table(request.query),
  );

  api.get(
    "/api/pandaadmin/sutie/channels",
    { schema: { tags, summary: "套曲列表的分类筛选项 (全部分类)", response: { 200: envelope(suiteChannelsSchema) } } },
    async () => ok(await suites.channels()),
  );

  api.delete(
    "/api/sutie/batch",
    {
      schema: {
        tags,
        summary: "批量删除套曲 (移入回收站; 全部存在才删除, 否则 404 且不删除任何一条)",
        body: suiteIdsBodySchema,
        response: { 200: envelope(suiteIdsResultSchema) },
      },
    },
    async (request) => ok({ ids: await suites.delete(auditActor(request), request.body.ids, true) }, t.batchDeleteOk),
  );

  api.delete(
    "/api/sutie/:id",
    {
      schema: { tags, summary: "删除套曲 (移入回收站, 前台立即不可见; 30 天后彻底删除)", params: suiteIdParamsSchema, response: { 200: envelope(suiteIdsResultSchema) } },
    },
    async (request) => ok({ ids: await suites.delete(auditActor(request), [request.params.id], false) }, t.deleteOk),
  );

  api.post(
    "/api/sutie/restore",
    {
      schema: {
        tags,
        summary: "从回收站还原套曲 (恢复删除前的状态; 全部在回收站中才还原, 否则 404 且不还原任何一条)",
        body: suiteIdsBodySchema,
        response: { 200: envelope(suiteIdsResultSchema) },
      },
    },
    async (request) => ok({ ids: await suites.restore(auditActor(request), request.body.ids) }, m.restoreOk),
  );

  api.post(
    "/api/sutie/purge",
    {
      schema: {
        tags,
        summary: "彻底删除回收站中的套曲 (无法恢复; 全部在回收站中才删除)",
        body: suiteIdsBodySchema,
        response: { 200: envelope(suiteIdsResultSchema) },
      },
    },
    async (request) => ok({ ids: await suites.purge(auditActor(request), request.body.ids) }, m.purgeOk),
  );

  api.post(
    "/api/sutie/status",
    {
      schema: {
        tags,
        summary: "启用 (normal 正常) 或禁用 (hidden 禁用) 套曲; 禁用的套曲从前台消失",
        body: suiteStatusBodySchema,
        response: { 200: envelope(suiteIdsResultSchema) },
      },
    },
    async (request) => ok({ ids: await suites.setStatus(auditActor(request), request.body.ids, request.body.status) }, m.statusOk),
  );
};
