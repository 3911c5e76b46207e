import {
  adminAccountMessages as m,
  adminCreateSchema,
  adminIdParamsSchema,
  adminIndexQuerySchema,
  adminLoginAnswerSchema,
  adminLoginRequestSchema,
  adminOwnPasswordSchema,
  adminResetPasswordSchema,
  adminRowSchema,
  adminStatusSchema,
  adminTableSchema,
  adminUpdateSchema,
  auditIndexQuerySchema,
  auditTableSchema,
} from "@contracts/admin-accounts";
import { authMessages } from "@contracts/auth";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.js";
import { bearerToken, declareAccess } from "../../http/auth.js";
import type { AppServices } from "../../services.js";
import { BODY_LIMITS } from "../../http/body-limits.js";
import { clientMeta } from "../accounts/auth-routes.js";
import { auditActor } from "../audit/service.js";
import { setAdminMenuCookie } from "../admin/menu-cookie.js";

const LOGIN_BODY_LIMIT = BODY_LIMITS.login;

/**
 * The back office's accounts (issue 12, ADR 0027): the admin login (public), an admin's own
 * password (any admin), the admins screen and the audit trail (超级管理员 only).
 */
export const adminAccountRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "super");
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["admin"];

  api.post(
    "/api/pandaadmin/login",
    {
      config: { access: "public" },
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: {
        tags,
        summary: "管理员登录 (失败5次起须填验证码, data.iscaptcha 为失败次数)",
        description:
          "与前台登录相同的计数与锁定: 同一账号15分钟内失败20次 (同一地址100次) 锁定15分钟 (429)。禁用的管理员: 403 管理员账号已被禁用 (仅在密码正确时)。" +
          "每次登录 (成功与已知账号的密码错误) 写入 login_records (IP、归属地、浏览器)。",
        body: adminLoginRequestSchema,
        response: { 200: envelope(adminLoginAnswerSchema) },
      },
    },
    async (request, reply) => {
      try {
        const answer = await services.adminAuth.login(request.body, clientMeta(request));
        // The first paint of the back office draws this admin's menu (ADR 0078).
        setAdminMenuCookie(request, reply, answer.token);
        return ok(answer, m.loginOk);
      } catch (err) {
        if (err instanceof AppError) throw err;
        request.log.error({ err }, "admin login failed");
        throw new AppError(500, authMessages.loginUnavailable);
      }
    },
  );

  api.post(
    "/api/pandaadmin/password",
    {
      config: { access: "admin", beforePasswordChange: true },
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: { tags, summary: "修改自己的密码 (原密码 + 新密码两次; 其他会话全部退出)", body: adminOwnPasswordSchema, response: { 200: envelope(z.null()) } },
    },
    async (request) => {
      await services.adminAuth.changeOwnPassword(auditActor(request), bearerToken(request), request.body);
      return ok(null, m.passwordChanged);
    },
  );

  api.get(
    "/api/pandaadmin/admins/index",
    {
      schema: {
        tags,
        summary: "管理员列表 (超级管理员; search 账号/昵称, filter/op, sort, order, offset, limit → {total, rows})",
        querystring: adminIndexQuerySchema,
        response: { 200: adminTableSchema },
      },
    },
    async (request) => services.adminAccounts.table(request.query),
  );

  api.post(
    "/api/pandaadmin/admins",
    { schema: { tags, summary: "添加管理员 (账号, 密码, 昵称, 角色)", body: adminCreateSchema, response: { 200: envelope(adminRowSchema) } } },
    async (request) => ok(await services.adminAccounts.create(auditActor(request), request.body), m.created),
  );

  api.patch(
    "/api/pandaadmin/admins/:id",
    {
      schema: {
        tags,
        summary: "修改管理员昵称与角色 (不能取消自己的超级管理员; 须保留一个启用的超级管理员)",
        params: adminIdParamsSchema,
        body: adminUpdateSchema,
        response: { 200: envelope(adminRowSchema) },
      },
    },
    async (request) => ok(await services.adminAccounts.update(auditActor(request), request.params.id, request.body), m.saved),
  );

  api.post(
    "/api/pandaadmin/admins/:id/status",
    {
      schema: {
        tags,
        summary: "启用 (1) / 禁用 (0) 管理员; 禁用即结束其全部会话 (不能禁用自己; 须保留一个启用的超级管理员)",
        params: adminIdParamsSchema,
        body: adminStatusSchema,
        response: { 200: envelope(adminRowSchema) },
      },
    },
    async (request) => {
      const row = await services.adminAccounts.setStatus(auditActor(request), request.params.id, request.body.status);
      return ok(row, row.status === 1 ? m.enabled : m.disabled);
    },
  );

  api.post(
    "/api/pandaadmin/admins/:id/password",
    {
      schema: { tags, summary: "重置管理员密码 (其会话全部结束)", params: adminIdParamsSchema, body: adminResetPasswordSchema, response: { 200: envelope(z.null()) } },
    },
    async (request) => {
      await services.adminAccounts.resetPassword(auditActor(request), request.params.id, request.body.password, bearerToken(request));
      return ok(null, m.passwordReset);
    },
  );

  api.get(
    "/api/pandaadmin/audit/index",
    {
      schema: {
        tags,
        summary: "审计日志 (超级管理员; 按管理员 admin_id、操作 action、对象 target_type、时间 createtime 筛选; 默认最新在前 → {total, rows})",
        querystring: auditIndexQuerySchema,
        response: { 200: auditTableSchema },
      },
    },
    async (request) => services.auditTrail.table(request.query),
  );
};

