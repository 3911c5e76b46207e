import { adminTableQuerySchema } from "@contracts/admin-table";
import {
  adminCommentChangedSchema,
  adminCommentDeleteBodySchema,
  adminCommentHideBodySchema,
  adminCommentMessages as m,
  adminCommentTableSchema,
} from "@contracts/admin-people";
import { adminTableMessages } from "@contracts/admin-table-texts";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { declareAccess } from "../../http/auth.js";
import type { AppServices } from "../../services.js";
import { auditActor } from "../audit/service.js";

/** The back office's comments (issue 12): content, so any enabled admin. */
export const adminCommentRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "admin");
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["admin"];
  const comments = services.adminComments;

  api.get(
    "/api/pandaadmin/comments/index",
    {
      schema: {
        tags,
        summary: "评论列表 (最新在前; 按套曲 item_id 或用户 user_id/username 筛选, 返回 {total, rows})",
        querystring: adminTableQuerySchema,
        response: { 200: adminCommentTableSchema },
      },
    },
    async (request) => comments.table(request.query),
  );

  api.post(
    "/api/pandaadmin/comments/hide",
    {
      schema: {
        tags,
        summary: "隐藏评论 (hidden: true) 或重新显示 (hidden: false); 套曲的评论数随之变化",
        body: adminCommentHideBodySchema,
        response: { 200: envelope(adminCommentChangedSchema) },
      },
    },
    async (request) => {
      const ids = await comments.setHidden(auditActor(request), request.body.ids, request.body.hidden);
      return ok({ ids }, request.body.hidden ? m.hidden : m.shown);
    },
  );

  api.post(
    "/api/pandaadmin/comments/delete",
    {
      schema: {
        tags,
        summary: "删除评论 (连同回复); 套曲的评论数随之减少",
        body: adminCommentDeleteBodySchema,
        response: { 200: envelope(adminCommentChangedSchema) },
      },
    },
    async (request) => ok({ ids: await comments.delete(auditActor(request), request.body.ids) }, adminTableMessages.deleteOk),
  );
};
