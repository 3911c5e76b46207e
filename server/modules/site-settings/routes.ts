import { adminContentPaths, siteSettingsSchema, siteSettingsTexts } from "@contracts/admin-content";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { declareAccess } from "../../http/auth.js";
import type { AppServices } from "../../services.js";
import { auditActor } from "../audit/service.js";

/** 站点设置 (issue 12, ADR 0030): 超级管理员 only. */
export const siteSettingsRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "super");
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["admin"];
  const answer = envelope(z.object({ title: z.string(), keywords: z.string(), description: z.string(), footer: z.string(), partnerText: z.string() }));

  api.get(adminContentPaths.settings, { schema: { tags, summary: "站点设置 (标题、关键词、描述、页脚、合作说明)", response: { 200: answer } } }, async () =>
    ok(await services.siteSettings.get()),
  );
  api.put(
    adminContentPaths.settings,
    { schema: { tags, summary: "保存站点设置 (公开页面下一次请求即生效)", body: siteSettingsSchema, response: { 200: answer } } },
    async (request) => ok(await services.siteSettings.update(auditActor(request), request.body), siteSettingsTexts.saved),
  );
};
