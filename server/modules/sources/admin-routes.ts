import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import {
  sourceAdminListSchema,
  sourceAdminSchema,
  sourceCodeParamsSchema,
  sourceConfigBodySchema,
  sourceDeletedSchema,
  sourceAdminMessages,
  sourcePatchSchema,
  sourceSwitchAnswerSchema,
  sourceSwitchBodySchema,
  sourceTryAnswerSchema,
  sourceTryBodySchema,
} from "@contracts/source-admin";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { declareAccess } from "../../http/auth.js";
import { BODY_LIMITS } from "../../http/body-limits.js";
import type { AppServices } from "../../services.js";
import { auditActor } from "../audit/service.js";

const tags = ["admin"];

/** The back office's sources (ADR 0026): generic sources added or repaired while the site runs. */
export const sourceAdminRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  // Sources (their hosts, selectors and schedules) are the 超级管理员's (issue 12): editors run content only.
  declareAccess(app, "super");
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = services.sourceAdmin;

  api.get(
    "/api/pandaadmin/sources",
    {
      schema: {
        tags,
        summary: "来源站点列表 (内置或通用配置、启用、排序、采集间隔、是否正在使用)",
        response: { 200: envelope(sourceAdminListSchema) },
      },
    },
    async () => ok({ sources: await admin.list() }),
  );

  api.put(
    "/api/pandaadmin/sources/:code",
    {
      bodyLimit: BODY_LIMITS.sourceConfig,
      schema: {
        tags,
        summary: "新建或替换通用来源的配置 (URL 模板、CSS 选择器或 JSON 路径、编码、请求头、主机); 立即生效, 无需重启",
        params: sourceCodeParamsSchema,
        body: sourceConfigBodySchema,
        response: { 200: envelope(sourceAdminSchema), 201: envelope(sourceAdminSchema) },
      },
    },
    async (request, reply) => {
      const { created, source } = await admin.putConfig(auditActor(request), request.params.code, request.body);
      return reply.code(created ? 201 : 200).send(ok(source));
    },
  );

  api.patch(
    "/api/pandaadmin/sources/:code",
    {
      schema: {
        tags,
        summary: "修改来源的启用状态、名称、图标、排序、采集间隔或超时 (timeoutMs 500-30000 毫秒, null 恢复默认; 内置来源也可设置)",
        params: sourceCodeParamsSchema,
        body: sourcePatchSchema,
        response: { 200: envelope(sourceAdminSchema) },
      },
    },
    async (request) => {
      return ok(await admin.patch(auditActor(request), request.params.code, request.body));
    },
  );

  api.post(
    "/api/pandaadmin/sources/switch",
    {
      schema: {
        tags,
        summary: "批量启用或停用来源 {codes, enabled}: 全部生效或全部不变 (有不存在的来源时 404), 每个改变的来源记审计",
        body: sourceSwitchBodySchema,
        response: { 200: envelope(sourceSwitchAnswerSchema) },
      },
    },
    async (request) => {
      const { codes, enabled } = request.body;
      const sources = await admin.switchMany(auditActor(request), codes, enabled);
      return ok({ sources }, sourceAdminMessages.switched(enabled, sources.length));
    },
  );

  api.delete(
    "/api/pandaadmin/sources/:code",
    {
      schema: {
        tags,
        summary: "删除通用来源 (内置来源不能删除, 只能停用)",
        params: sourceCodeParamsSchema,
        response: { 200: envelope(sourceDeletedSchema) },
      },
    },
    async (request) => {
      await admin.remove(auditActor(request), request.params.code);
      return ok({ code: request.params.code });
    },
  );

  api.post(
    "/api/pandaadmin/sources/:code/try",
    {
      schema: {
        tags,
        summary: "试搜: 用该来源的适配器搜索一次 (第一页, 不走缓存), 返回结果或适配器的错误",
        params: sourceCodeParamsSchema,
        body: sourceTryBodySchema,
        response: { 200: envelope(sourceTryAnswerSchema) },
      },
    },
    async (request) => ok(await admin.tryIt(request.params.code, request.body.keyword)),
  );
};
