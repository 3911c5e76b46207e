import multipart from "@fastify/multipart";
import {
  adminContentPaths as paths,
  BLOCK_IMAGE_MAX_BYTES,
  blockInputSchema,
  blockItemInputSchema,
  blockItemPatchSchema,
  blockItemRowSchema,
  blockPatchSchema,
  blockRowSchema,
  blockTableSchema,
  blockTexts as bt,
  categoryIndexQuerySchema,
  categoryInputSchema,
  categoryOptionSchema,
  categoryPatchSchema,
  categoryRowSchema,
  categoryTableSchema,
  categoryTexts as ct,
  idParamSchema,
  sortMoveSchema,
} from "@contracts/admin-content";
import { adminTableMessages, adminTableQuerySchema } from "@contracts/admin-table";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { badRequest } from "../../errors.js";
import { declareAccess } from "../../http/auth.js";
import type { AppServices } from "../../services.js";
import { auditActor } from "../audit/service.js";
import { readUploadPart } from "../../lib/image-upload.js";

/**
 * The back office's categories and blocks (issue 12, ADR 0030); any enabled admin. Tables answer
 * the bare `{total, rows}` (ADMIN-API.md); everything else the envelope.
 */
export const adminContentRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "admin");
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { categoryAdmin: categories, blockAdmin: blocks } = services;
  const tags = ["admin"];
  const params = idParamSchema;

  api.get(
    paths.categoryIndex,
    { schema: { tags, summary: "分类列表 (search、filter/op、sort、offset、limit; 返回 {total, rows})", querystring: categoryIndexQuerySchema, response: { 200: categoryTableSchema } } },
    (request) => categories.table(request.query),
  );
  api.get(
    paths.categoryOptions,
    { schema: { tags, summary: "全部分类 (上级分类下拉框)", response: { 200: envelope(z.array(categoryOptionSchema)) } } },
    async () => ok(await categories.options()),
  );
  api.post(
    paths.category,
    { schema: { tags, summary: "添加分类", body: categoryInputSchema, response: { 200: envelope(categoryRowSchema) } } },
    async (request) => ok(await categories.create(auditActor(request), request.body), ct.created),
  );
  api.post(
    paths.categorySort,
    { schema: { tags, summary: "拖动排序：分类 id 移到分类 to 的位置，全部分类重新编号", body: sortMoveSchema, response: { 200: envelope(z.null()) } } },
    async (request) => {
      await categories.move(auditActor(request), request.body);
      return ok(null, ct.sorted);
    },
  );
  api.put(
    `${paths.category}/:id`,
    { schema: { tags, summary: "修改分类 (只改给出的字段)", params, body: categoryPatchSchema, response: { 200: envelope(categoryRowSchema) } } },
    async (request) => ok(await categories.update(auditActor(request), request.params.id, request.body), ct.saved),
  );
  api.delete(
    `${paths.category}/:id`,
    { schema: { tags, summary: "删除分类 (分类下还有套曲或子分类时拒绝)", params, response: { 200: envelope(z.null()) } } },
    async (request) => {
      await categories.delete(auditActor(request), request.params.id);
      return ok(null, adminTableMessages.deleteOk);
    },
  );

  api.get(
    paths.blockIndex,
    { schema: { tags, summary: "区块列表 (返回 {total, rows})", querystring: adminTableQuerySchema, response: { 200: blockTableSchema } } },
    (request) => blocks.table(request.query),
  );
  api.post(
    paths.block,
    { schema: { tags, summary: "添加区块 (位置 indexfocus 首页焦点图 / indexweb 合作站点)", body: blockInputSchema, response: { 200: envelope(blockRowSchema) } } },
    async (request) => ok(await blocks.create(auditActor(request), request.body), bt.created),
  );
  api.post(
    paths.blockSort,
    { schema: { tags, summary: "拖动排序：区块 id 移到同一位置的区块 to 的位置", body: sortMoveSchema, response: { 200: envelope(z.null()) } } },
    async (request) => {
      await blocks.move(auditActor(request), request.body);
      return ok(null, bt.sorted);
    },
  );
  api.put(
    `${paths.block}/:id`,
    { schema: { tags, summary: "修改区块", params, body: blockPatchSchema, response: { 200: envelope(blockRowSchema) } } },
    async (request) => ok(await blocks.update(auditActor(request), request.params.id, request.body), bt.saved),
  );
  api.delete(
    `${paths.block}/:id`,
    { schema: { tags, summary: "删除区块及其内容", params, response: { 200: envelope(z.null()) } } },
    async (request) => {
      await blocks.delete(auditActor(request), request.params.id);
      return ok(null, adminTableMessages.deleteOk);
    },
  );
  api.get(
    `${paths.block}/:id/items`,
    { schema: { tags, summary: "区块内容 (图片、链接、名称、排序)", params, response: { 200: envelope(z.array(blockItemRowSchema)) } } },
    async (request) => ok(await blocks.items(request.params.id)),
  );
  api.post(
    `${paths.block}/:id/items`,
    { schema: { tags, summary: "添加区块内容", params, body: blockItemInputSchema, response: { 200: envelope(blockItemRowSchema) } } },
    async (request) => ok(await blocks.createItem(auditActor(request), request.params.id, request.body), bt.created),
  );
  api.put(
    `${paths.blockItem}/:id`,
    { schema: { tags, summary: "修改区块内容", params, body: blockItemPatchSchema, response: { 200: envelope(blockItemRowSchema) } } },
    async (request) => ok(await blocks.updateItem(auditActor(request), request.params.id, request.body), bt.saved),
  );
  api.delete(
    `${paths.blockItem}/:id`,
    { schema: { tags, summary: "删除区块内容", params, response: { 200: envelope(z.null()) } } },
    async (request) => {
      await blocks.deleteItem(auditActor(request), request.params.id);
      return ok(null, adminTableMessages.deleteOk);
    },
  );

  // Multipart only here, in its own scope: no other route of this plugin accepts uploads.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: BLOCK_IMAGE_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 50 },
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      paths.blockImage,
      {
        schema: {
          tags,
          summary: "上传区块图片 (multipart 字段 image, ≤5MB; 解码后按位置缩放/裁剪为 WebP, 去掉元数据)",
          consumes: ["multipart/form-data"],
          querystring: z.object({ position: z.string().max(40).optional() }),
          body: z.object({ image: z.string().meta({ format: "binary" }) }).nullish(),
          response: { 200: envelope(z.object({ url: z.string() })) },
        },
      },
      async (request) => {
        const texts = { missing: bt.imageMissing, tooLarge: bt.imageTooLarge, notImage: bt.imageNotImage };
        if (!request.isMultipart()) throw badRequest(bt.imageMissing);
        const bytes = await readUploadPart(request, "image", texts);
        return ok({ url: await blocks.uploadImage(bytes, request.query.position) }, bt.uploaded);
      },
    );
  });
};
