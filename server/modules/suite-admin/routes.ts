import multipart from "@fastify/multipart";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import {
  COVER_MAX_BYTES,
  coverUploadedSchema,
  MEDIA_MAX_BYTES,
  mediaUploadedSchema,
  suiteFormDataSchema,
  suiteFormFieldsSchema,
  suiteFormMessages as m,
  suiteFormOptionsSchema,
  suiteFormSchema,
  suiteIdParamsSchema,
  mediaChunkParamsSchema,
  mediaChunkQuerySchema,
  mediaChunkReceivedSchema,
  mediaChunkStartSchema,
  suiteSavedSchema,
} from "@contracts/suite-form";
import type { Readable } from "node:stream";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, badRequest } from "../../errors.js";
import { declareAccess } from "../../http/auth.js";
import { BODY_LIMITS } from "../../http/body-limits.js";
import type { AppServices } from "../../services.js";
import { auditActor } from "../audit/service.js";
import { storeCover } from "./cover.js";
import { mediaChunks } from "./media-chunks.js";
import { storeMedia } from "./media-upload.js";
import { multipartErrorStatus } from "../../lib/multipart-errors.js";

/**
 * The back office's suite form (issue 12, ADR 0029): its data, create, update, and the cover
 * and media uploads. Any enabled admin (content, not super-only).
 */
export const suiteAdminRoutes: FastifyPluginAsync<{ services: AppServices; uploadsDir: string }> = async (app, { services, uploadsDir }) => {
  declareAccess(app, "admin");
  // This plugin's scope only. Per-call limits below; these are the ceilings.
  await app.register(multipart, {
    limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 50 },
  });
  // A media piece is read as it arrives (media-chunks.ts bounds it), never parsed or buffered.
  app.addContentTypeParser("application/octet-stream", (_request, payload, done) => done(null, payload));
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["admin"];
  const chunks = mediaChunks(uploadsDir);

  api.get(
    "/api/pandaadmin/suites/options",
    { schema: { tags, summary: "套曲表单的选项: 分类与来源站点", response: { 200: envelope(suiteFormOptionsSchema) } } },
    async () => ok(await services.suiteAdmin.options()),
  );

  api.get(
    "/api/pandaadmin/suites/:id",
    { schema: { tags, summary: "编辑套曲: 表单数据", params: suiteIdParamsSchema, response: { 200: envelope(suiteFormDataSchema) } } },
    async (request) => ok(await services.suiteAdmin.get(request.params.id)),
  );

  api.post(
    "/api/pandaadmin/suites",
    {
      bodyLimit: BODY_LIMITS.suiteForm,
      schema: { tags, summary: "添加套曲 (经写服务保存, 前台下一次请求即可见; 记审计 suite.create)", body: suiteFormSchema, response: { 200: envelope(suiteSavedSchema) } },
    },
    async (request) => ok(await services.suiteAdmin.create(auditActor(request), request.body), m.created),
  );

  api.put(
    "/api/pandaadmin/suites/:id",
    {
      bodyLimit: BODY_LIMITS.suiteForm,
      schema: { tags, summary: "保存套曲 (记审计 suite.update, 含修改前后; 文件列表未改动时不重新检查其顺序)", params: suiteIdParamsSchema, body: suiteFormFieldsSchema, response: { 200: envelope(suiteSavedSchema) } },
    },
    async (request) => ok(await services.suiteAdmin.update(auditActor(request), request.params.id, request.body), m.saved),
  );

  api.post(
    "/api/pandaadmin/upload/cover",
    {
      schema: {
        tags,
        summary: "上传封面 (multipart 字段 file，图片≤10MB; 解码后裁成 600×600 WebP，去掉元数据)",
        consumes: ["multipart/form-data"],
        body: uploadDocSchema("图片文件 (JPEG/PNG/WebP/GIF/AVIF)，≤10MB"),
        response: { 200: envelope(coverUploadedSchema) },
      },
    },
    async (request) => {
      const part = await filePart(request, COVER_MAX_BYTES, m.coverMissing, m.coverNotImage);
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (err) {
        throw uploadError(err, m.coverTooLarge, m.coverNotImage);
      }
      return ok({ url: await storeCover(uploadsDir, bytes) }, m.coverUploaded);
    },
  );

  api.post(
    "/api/pandaadmin/upload/media",
    {
      schema: {
        tags,
        summary: "上传媒体 (multipart 字段 file: mp3/m4a/mp4，≤1GB，按内容识别；边收边写入磁盘；返回地址、时长(秒)、大小、类型)",
        consumes: ["multipart/form-data"],
        body: uploadDocSchema("媒体文件 (mp3/m4a/mp4)，≤1GB"),
        response: { 200: envelope(mediaUploadedSchema) },
      },
    },
    async (request) => {
      const part = await filePart(request, MEDIA_MAX_BYTES, m.mediaMissing, m.mediaNotMedia);
      try {
        const stored = await storeMedia(uploadsDir, { stream: part.file, truncated: () => part.file.truncated });
        return ok(stored, m.mediaUploaded);
      } catch (err) {
        throw uploadError(err, m.mediaTooLarge, m.mediaNotMedia);
      }
    },
  );

  api.post(
    "/api/pandaadmin/upload/media/chunks",
    { schema: { tags, summary: "分片上传媒体: 开始 (大文件按 ≤8MB 分片上传, 每个请求都在请求超时内到达)", response: { 200: envelope(mediaChunkStartSchema) } } },
    async () => ok(await chunks.start()),
  );

  api.put(
    "/api/pandaadmin/upload/media/chunks/:uploadId",
    {
      schema: {
        tags,
        summary: "分片上传媒体: 追加一片 (application/octet-stream, ≤8MB; offset 须等于已收到的字节数, 否则 409 并给出 received)",
        consumes: ["application/octet-stream"],
        params: mediaChunkParamsSchema,
        querystring: mediaChunkQuerySchema,
        response: { 200: envelope(mediaChunkReceivedSchema) },
      },
    },
    async (request) => {
      const body = request.body as Readable | undefined;
      if (!body || typeof (body as Readable).pipe !== "function") throw badRequest(m.mediaMissing);
      const length = request.headers["content-length"] ? Number(request.headers["content-length"]) : undefined;
      return ok(await chunks.append(request.params.uploadId, request.query.offset, body, length));
    },
  );

  api.post(
    "/api/pandaadmin/upload/media/chunks/:uploadId/finish",
    {
      schema: { tags, summary: "分片上传媒体: 完成 (按内容识别类型并读取时长; 与一次上传的回答相同)", params: mediaChunkParamsSchema, response: { 200: envelope(mediaUploadedSchema) } },
    },
    async (request) => ok(await chunks.finish(request.params.uploadId), m.mediaUploaded),
  );

  api.delete(
    "/api/pandaadmin/upload/media/chunks/:uploadId",
    { schema: { tags, summary: "分片上传媒体: 放弃 (删除已收到的部分)", params: mediaChunkParamsSchema, response: { 200: envelope(z.null()) } } },
    async (request) => {
      await chunks.cancel(request.params.uploadId);
      return ok(null);
    },
  );
};

const uploadDocSchema = (description: string) => z.object({ file: z.string().meta({ format: "binary", description }) }).nullish();

/** The request's one file part, named `file`, cut at `maxBytes`. */
async function filePart(request: FastifyRequest, maxBytes: number, missing: string, bad: string) {
  if (!request.isMultipart()) throw badRequest(missing);
  try {
    const part = await request.file({ limits: { fileSize: maxBytes } });
    if (!part || part.fieldname !== "file") throw badRequest(missing);
    return part;
  } catch (err) {
    throw uploadError(err, bad, bad);
  }
}

/** Multipart and size failures as our 4xx; our own errors as they are; anything else unchanged (500). */
function uploadError(err: unknown, tooLarge: string, bad: string): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return new AppError(413, tooLarge);
  const status = multipartErrorStatus(err);
  if (status >= 400 && status < 500) return badRequest(bad);
  return err;
}
