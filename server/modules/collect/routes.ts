import {
  collectJobDetailSchema,
  collectJobIdParamsSchema,
  collectJobListSchema,
  collectJobSchema,
  collectStartAnswerSchema,
  collectStartBodySchema,
  type CollectJobAnswer,
  type CollectUnitAnswer,
} from "@contracts/collect";
import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { CollectUnit } from "../../db/schema/index.js";
import { declareAccess } from "../../http/auth.js";
import { auditActor } from "../audit/service.js";
import type { AppServices } from "../../services.js";
import { chartKey } from "./plans.js";
import type { CollectJob } from "./repo.js";

const PERIOD_NAMES = { day: "日榜", week: "周榜", month: "月榜", quarter: "季榜" } as const;
const KIND_NAMES = { mix: "串烧", single: "单曲" } as const;

function unitAnswer(unit: CollectUnit): CollectUnitAnswer {
  if (unit.type === "chart") {
    return { type: "chart", key: chartKey(unit), name: `${PERIOD_NAMES[unit.period]}·${KIND_NAMES[unit.kind]}`, kind: unit.kind, maxPages: unit.maxPages };
  }
  return { type: "category", key: unit.key, name: unit.name, kind: unit.kind ?? null, maxPages: unit.maxPages };
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function jobAnswer(job: CollectJob): CollectJobAnswer {
  const unit = job.plan[job.unitIndex];
  return {
    id: job.id,
    source: job.source,
    trigger: job.trigger,
    state: job.state,
    planSize: job.plan.length,
    unitIndex: job.unitIndex,
    nextPage: job.nextPage,
    currentUnit: unit && (job.state === "queued" || job.state === "running") ? unitAnswer(unit) : null,
    pagesDone: job.pagesDone,
    itemsFound: job.itemsFound,
    itemsNew: job.itemsNew,
    errors: job.errors,
    lastError: job.lastError,
    attempts: job.attempts,
    lockedUntil: job.state === "running" ? iso(job.lockedUntil) : null,
    createdAt: job.createdAt.toISOString(),
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
  };
}

/** The back office's collection controls (issue 11): start, watch progress, cancel. */
export const collectRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "admin");
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/api/pandaadmin/collect/start",
    {
      schema: {
        tags: ["admin"],
        summary: "开始采集 (指定来源或全部启用的来源；已在排队或运行的任务直接返回)",
        body: collectStartBodySchema,
        response: { 200: envelope(collectStartAnswerSchema) },
      },
    },
    async (request) => {
      const results = await services.collector.startNow({ source: request.body.source, requestedBy: request.admin!.id, actor: auditActor(request) });
      return ok({ jobs: results.map(({ job, created }) => ({ created, job: jobAnswer(job) })) });
    },
  );

  api.get(
    "/api/pandaadmin/collect/jobs",
    {
      schema: {
        tags: ["admin"],
        summary: "最近的采集任务及进度 (已采页数、发现条目、新条目、错误)",
        response: { 200: envelope(collectJobListSchema) },
      },
    },
    async () => ok({ jobs: (await services.collector.jobs()).map(jobAnswer) }),
  );

  api.get(
    "/api/pandaadmin/collect/jobs/:id",
    {
      schema: {
        tags: ["admin"],
        summary: "一个采集任务的详情、计划和逐页记录",
        params: collectJobIdParamsSchema,
        response: { 200: envelope(collectJobDetailSchema) },
      },
    },
    async (request) => {
      const { job, pages } = await services.collector.job(request.params.id);
      return ok({
        job: jobAnswer(job),
        plan: job.plan.map(unitAnswer),
        pages: pages.map((p) => ({ unitIndex: p.unitIndex, page: p.page, items: p.items, newItems: p.newItems, error: p.error, doneAt: p.doneAt.toISOString() })),
      });
    },
  );

  api.post(
    "/api/pandaadmin/collect/jobs/:id/cancel",
    {
      schema: {
        tags: ["admin"],
        summary: "取消排队中或运行中的采集任务",
        params: collectJobIdParamsSchema,
        response: { 200: envelope(collectJobSchema) },
      },
    },
    async (request) => {
      const job = await services.collector.cancel(request.params.id, auditActor(request));
      return ok(jobAnswer(job));
    },
  );
};
