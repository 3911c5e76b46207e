import {
  adminCoinsBodySchema,
  buyVipBodySchema,
  buyVipResultSchema,
  checkinResultSchema,
  coinLogEntrySchema,
  economyMessages as m,
  economyPaths as paths,
  walletSchema,
} from "@contracts/economy";
import { adminIdParamsSchema } from "@contracts/admin-people";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { pagedSchema, pageQuerySchema } from "@contracts/library";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppServices } from "../../services.js";
import { auditActor } from "../audit/service.js";

const member = { access: "user" } as const;
const tags = ["user"];

/** The member economy's calls (ADR 0061). Rules live in the economy service. */
export const economyRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const { economy } = services;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    paths.wallet,
    { config: member, schema: { tags, summary: "金币余额、VIP到期时间和今日签到状态", response: { 200: envelope(walletSchema) } } },
    async (request) => ok(await economy.wallet(request.user!.id)),
  );

  api.post(
    paths.checkin,
    {
      config: member,
      schema: {
        tags,
        summary: "每日签到 (按中国日期每天一次; 2币, 连续签到每天多1币, 最多多5币); 重复签到 409 今日已签到",
        response: { 200: envelope(checkinResultSchema) },
      },
    },
    async (request) => ok(await economy.checkin(request.user!.id), m.checkinOk),
  );

  api.post(
    paths.buyVip,
    {
      config: member,
      schema: {
        tags,
        summary: "用金币开通VIP (m1: 30天100币, m3: 90天270币, y1: 365天1000币; 从现在或当前到期时间中较晚者延长); 余额不足 400",
        body: buyVipBodySchema,
        response: { 200: envelope(buyVipResultSchema) },
      },
    },
    async (request) => ok(await economy.buyVip(request.user!.id, request.body.plan), m.vipOk),
  );

  api.get(
    paths.coinlog,
    {
      config: member,
      schema: { tags, summary: "收支明细 (每一笔金币收入和支出, 最新在前)", querystring: pageQuerySchema, response: { 200: envelope(pagedSchema(coinLogEntrySchema)) } },
    },
    async (request) => ok(await economy.coinlog(request.user!.id, request.query)),
  );

  api.post(
    "/api/pandaadmin/users/:id/coins",
    {
      config: { access: "super" },
      schema: {
        tags: ["admin"],
        summary: "给用户发放 (amount > 0) 或扣除 (amount < 0) 金币, 须填写原因; 余额不能为负; 记入审计日志和用户的收支明细",
        params: adminIdParamsSchema,
        body: adminCoinsBodySchema,
        response: { 200: envelope(z.object({ id: z.number().int(), coins: z.number().int() })) },
      },
    },
    async (request) => ok(await economy.adjust(auditActor(request), request.params.id, request.body), m.adjustOk),
  );
};
