import { Readable } from "node:stream";
import { exportPath } from "@contracts/admin-export";
import { adminTableQuerySchema } from "@contracts/admin-table";
import { auditIndexQuerySchema } from "@contracts/admin-accounts";
import { collectedIndexQuerySchema } from "@contracts/collected";
import { suiteTableQuerySchema } from "@contracts/suite-list";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppServices } from "../../services.js";
import { auditActor } from "../audit/service.js";
import type { CsvDownload } from "./service.js";

function sendCsv(reply: FastifyReply, { disposition, body }: CsvDownload) {
  reply.header("content-type", "text/csv; charset=utf-8").header("content-disposition", disposition).header("cache-control", "no-store");
  return reply.send(Readable.from(body, { objectMode: false, encoding: "utf8" }));
}

/**
 * CSV exports of the back office's tables (ADR 0065): each takes its table's list query and has
 * the access of viewing that table (套曲 and 采集数据: any admin; 用户 and 审计日志: 超级管理员).
 */
export const adminExportRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["admin"];
  const exports = services.adminExport;
  const summary = (what: string) => `导出${what}为 CSV (UTF-8 带 BOM; 查询参数同列表接口: search, filter/op, sort, order; 导出全部匹配行)`;

  api.get(
    exportPath("suites"),
    { config: { access: "admin" }, schema: { tags, summary: summary("套曲"), querystring: suiteTableQuerySchema } },
    async (request, reply) => sendCsv(reply, await exports.csv(auditActor(request), "suites", request.query)),
  );
  api.get(
    exportPath("collected"),
    { config: { access: "admin" }, schema: { tags, summary: summary("采集数据"), querystring: collectedIndexQuerySchema } },
    async (request, reply) => sendCsv(reply, await exports.csv(auditActor(request), "collected", request.query)),
  );
  api.get(
    exportPath("users"),
    { config: { access: "super" }, schema: { tags, summary: summary("用户"), querystring: adminTableQuerySchema } },
    async (request, reply) => sendCsv(reply, await exports.csv(auditActor(request), "users", request.query)),
  );
  api.get(
    exportPath("audit"),
    { config: { access: "super" }, schema: { tags, summary: summary("审计日志"), querystring: auditIndexQuerySchema } },
    async (request, reply) => sendCsv(reply, await exports.csv(auditActor(request), "audit", request.query)),
  );
};
