import multipart from "@fastify/multipart";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import {
  PLUGIN_MAX_BYTES,
  pluginAdminListSchema,
  pluginAdminMessages as messages,
  pluginAdminSchema,
  pluginDeletedSchema,
  pluginInstalledSchema,
  pluginInstallUrlSchema,
  pluginPatchSchema,
  pluginPlatformParamsSchema,
  pluginSwitchAnswerSchema,
  pluginSwitchBodySchema,
  pluginTryAnswerSchema,
  pluginTryBodySchema,
} from "@contracts/plugin-admin";
import { pluginReplayBodySchema, pluginStagedSchema, pluginVersionBodySchema, replayAnswerSchema } from "@contracts/recorded";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError, badRequest } from "../../errors.js";
import { declareAccess } from "../../http/auth.js";
import { multipartErrorStatus } from "../../lib/multipart-errors.js";
import type { AppServices } from "../../services.js";
import { auditActor } from "../audit/service.js";

const tags = ["admin"];

/** The uploaded plugin file (`file`), as text, at most PLUGIN_MAX_BYTES. */
async function uploadedCode(request: FastifyRequest): Promise<string> {
  try {
    const part = await request.file({ limits: { fileSize: PLUGIN_MAX_BYTES } });
    if (!part || part.fieldname !== "file") throw badRequest(messages.noSource);
    const bytes = await part.toBuffer();
    return bytes.toString("utf8");
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw new AppError(413, messages.tooLarge);
    const status = multipartErrorStatus(err);
    if (status >= 400 && status < 500) throw badRequest(messages.noSource);
    throw err;
  }
}

/** The back office's source plugins (issue 21, ADR 0048): the 超级管理员's, like the sources. */
export const pluginRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "super");
  await app.register(multipart, { limits: { fileSize: PLUGIN_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 1024, headerPairs: 50 } });
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = services.plugins.admin;
  const params = pluginPlatformParamsSchema;

  api.get(
    "/api/pandaadmin/plugins",
    { schema: { tags, summary: "来源插件列表 (MusicFree 插件协议: 平台、版本、作者、能力、变量、启用状态)", response: { 200: envelope(pluginAdminListSchema) } } },
    async () => ok({ plugins: await admin.list() }),
  );

  api.post(
    "/api/pandaadmin/plugins",
    {
      schema: {
        tags,
        summary: "安装插件: 上传文件 (multipart file), 或 JSON {url} 插件地址, 或 {subscription} 订阅地址. 新平台安装后默认停用 (installed); 已安装平台的更高版本只保存不启用 (staged: 回放样本后用 activate 启用); 相同或更低版本拒绝 (记审计)",
        consumes: ["multipart/form-data", "application/json"],
        body: pluginInstallUrlSchema.nullish(),
        response: { 200: envelope(pluginInstalledSchema) },
      },
    },
    async (request) => {
      const actor = auditActor(request);
      if (request.isMultipart()) return ok(await admin.installFile(actor, await uploadedCode(request)));
      const body = request.body ?? {};
      if (body.subscription) return ok(await admin.installSubscription(actor, body.subscription));
      if (body.url) return ok(await admin.installUrl(actor, body.url));
      throw badRequest(messages.noSource);
    },
  );

  api.patch(
    "/api/pandaadmin/plugins/:platform",
    {
      schema: {
        tags,
        summary: "启用/停用插件 {enabled}, 设置用户变量 {variables}, 替换内置来源 {replaces: djuu|172minx|vvvdj|null} (记审计)",
        params,
        body: pluginPatchSchema,
        response: { 200: envelope(pluginAdminSchema) },
      },
    },
    async (request) => ok(await admin.patch(auditActor(request), request.params.platform, request.body)),
  );

  api.post(
    "/api/pandaadmin/plugins/switch",
    {
      schema: {
        tags,
        summary: "批量启用或停用插件 {platforms, enabled}: 全部生效或全部不变 (有不存在的插件时 404), 每个改变的插件记审计",
        body: pluginSwitchBodySchema,
        response: { 200: envelope(pluginSwitchAnswerSchema) },
      },
    },
    async (request) => {
      const { platforms, enabled } = request.body;
      const plugins = await admin.switchMany(auditActor(request), platforms, enabled);
      return ok({ plugins }, messages.switched(enabled, plugins.length));
    },
  );

  api.post(
    "/api/pandaadmin/plugins/:platform/rollback",
    { schema: { tags, summary: "回滚到上一个版本 (记审计)", params, response: { 200: envelope(pluginAdminSchema) } } },
    async (request) => ok(await admin.rollback(auditActor(request), request.params.platform)),
  );

  api.post(
    "/api/pandaadmin/plugins/:platform/update",
    { schema: { tags, summary: "从插件的 srcUrl 下载更高的版本并立即启用 (供 API 调用: 等于 stage 后立即 activate, 不回放样本; 后台界面用 stage + replay + activate; 记审计)", params, response: { 200: envelope(pluginAdminSchema) } } },
    async (request) => ok(await admin.update(auditActor(request), request.params.platform)),
  );

  api.post(
    "/api/pandaadmin/plugins/:platform/try",
    { schema: { tags, summary: "试用: 用插件当前版本搜索一次并解析第一条的播放地址 (无需启用)", params, body: pluginTryBodySchema, response: { 200: envelope(pluginTryAnswerSchema) } } },
    async (request) => ok(await admin.tryIt(request.params.platform, request.body.keyword)),
  );

  api.post(
    "/api/pandaadmin/plugins/:platform/stage",
    { schema: { tags, summary: "检查更新但不启用: 下载 srcUrl 上更新的版本并保存, 供回放样本对比后再启用", params, response: { 200: envelope(pluginStagedSchema) } } },
    async (request) => ok(await admin.stage(auditActor(request), request.params.platform)),
  );

  api.post(
    "/api/pandaadmin/plugins/:platform/activate",
    { schema: { tags, summary: "启用已保存的新版本 {versionId} (当前版本成为上一版本, 可回滚; 记审计)", params, body: pluginVersionBodySchema, response: { 200: envelope(pluginAdminSchema) } } },
    async (request) => ok(await admin.activate(auditActor(request), request.params.platform, request.body.versionId)),
  );

  api.post(
    "/api/pandaadmin/plugins/:platform/replay",
    {
      schema: {
        tags,
        summary: "回放样本: 用插件的两个版本读取来源的全部样本并对比 ({versionId}: 当前版本对比该版本; 省略: 上一版本对比当前版本); 网络只由样本应答",
        params,
        body: pluginReplayBodySchema,
        response: { 200: envelope(replayAnswerSchema) },
      },
    },
    async (request) => ok(await services.replay.replayPlugin(request.params.platform, request.body?.versionId)),
  );

  api.delete(
    "/api/pandaadmin/plugins/:platform",
    { schema: { tags, summary: "删除插件及其全部版本 (记审计)", params, response: { 200: envelope(pluginDeletedSchema) } } },
    async (request) => {
      await admin.remove(auditActor(request), request.params.platform);
      return ok({ platform: request.params.platform });
    },
  );
};

