import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { recordedAnswerSchema, recordedDeletedSchema, recordedIdParamsSchema, recordedListQuerySchema, recordedListSchema, replayAnswerSchema } from "@contracts/recorded";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { declareAccess } from "../../../http/auth.js";
import type { AppServices } from "../../../services.js";

const tags = ["admin"];

/** The back office's 样本 (issue 22, ADR 0051): the 超级管理员's, like the sources and plugins. */
export const recordedRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "super");
  const api = app.withTypeProvider<ZodTypeProvider>();
  const recorded = services.recorded;

  api.get(
    "/api/pandaadmin/recorded",
    { schema: { tags, summary: "来源的样本 (记录的站点响应) 列表, 新的在前; 以及每个来源的数量与字节数", querystring: recordedListQuerySchema, response: { 200: envelope(recordedListSchema) } } },
    async (request) => ok({ answers: await recorded.list(request.query.source), limits: recorded.limits, sources: await recorded.sources() }),
  );

  api.get(
    "/api/pandaadmin/recorded/:id/body",
    { schema: { tags, summary: "下载样本的原始响应内容 (字节原样, 作为附件)", params: recordedIdParamsSchema } },
    async (request, reply) => {
      const row = await recorded.get(request.params.id);
      // An attachment, never rendered: a site's page must not run as ours.
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-disposition", `attachment; filename="${row.source}-${row.id}.bin"`)
        .header("x-content-sha256", row.sha256)
        .send(row.body);
    },
  );

  api.delete(
    "/api/pandaadmin/recorded/:id",
    { schema: { tags, summary: "删除一个样本", params: recordedIdParamsSchema, response: { 200: envelope(recordedDeletedSchema) } } },
    async (request) => {
      await recorded.remove(request.params.id);
      return ok({ id: request.params.id });
    },
  );

  api.post(
    "/api/pandaadmin/recorded/trial/:id",
    { schema: { tags, summary: "保存为样本: 把插件试用时得到的一个响应保存下来 (超出上限时删除最旧的)", params: recordedIdParamsSchema, response: { 200: envelope(recordedAnswerSchema) } } },
    async (request) => ok(await recorded.saveTrial(request.params.id)),
  );

  api.post(
    "/api/pandaadmin/recorded/replay",
    { schema: { tags, summary: "回放来源的全部样本: 内置来源用内置解析器, 插件来源用当前版本与上一版本对比", querystring: recordedListQuerySchema, response: { 200: envelope(replayAnswerSchema) } } },
    async (request) => ok(await services.replay.replaySource(request.query.source)),
  );
};
