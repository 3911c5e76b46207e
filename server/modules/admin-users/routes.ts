import { adminTableQuerySchema } from "@contracts/admin-table";
import {
  adminIdParamsSchema,
  adminUserDownloadTableSchema,
  adminUserMessages as m,
  adminUserPatchSchema,
  adminUserRowSchema,
  adminUserStatusBodySchema,
  adminUserTableSchema,
} from "@contracts/admin-people";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { declareAccess } from "../../http/auth.js";
import type { AppServices } from "../../services.js";
import { auditActor } from "../audit/service.js";

/** The back office's members (issue 12): 超级管理员 only. Tables answer the bare `{total, rows}`. */
export const adminUserRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "super");
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["admin"];
  const users = services.adminUsers;

  api.get(
    "/api/pandaadmin/users/index",
    {
      schema: {
        tags,
        summary: "用户列表 (用户名/邮箱/昵称搜索、filter/op、排序与分页, 返回 {total, rows})",
        querystring: adminTableQuerySchema,
        response: { 200: adminUserTableSchema },
      },
    },
    async (request) => users.table(request.query),
  );

  api.patch(
    "/api/pandaadmin/users/:id",
    {
      schema: {
        tags,
        summary: "修改用户的昵称、邮箱、金币、VIP 到期时间 (账号字段规则同注册与资料)",
        params: adminIdParamsSchema,
        body: adminUserPatchSchema,
        response: { 200: envelope(adminUserRowSchema) },
      },
    },
    async (request) => ok(await users.update(auditActor(request), request.params.id, request.body), m.saved),
  );

  api.post(
    "/api/pandaadmin/users/:id/status",
    {
      schema: {
        tags,
        summary: "启用或禁用用户 (禁用立即结束其所有登录会话)",
        params: adminIdParamsSchema,
        body: adminUserStatusBodySchema,
        response: { 200: envelope(adminUserRowSchema) },
      },
    },
    async (request) => {
      const row = await users.setStatus(auditActor(request), request.params.id, request.body.status);
      return ok(row, request.body.status === 0 ? m.disabled : m.enabled);
    },
  );

  api.get(
    "/api/pandaadmin/users/:id/downloads",
    {
      schema: {
        tags,
        summary: "用户的下载记录 (返回 {total, rows})",
        params: adminIdParamsSchema,
        querystring: adminTableQuerySchema,
        response: { 200: adminUserDownloadTableSchema },
      },
    },
    async (request) => users.downloads(request.params.id, request.query),
  );
};
