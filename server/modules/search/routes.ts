import { searchQuerySchema } from "@contracts/search";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { rateLimitConfig } from "../../http/rate-limits.js";
import { sendShared } from "../../http/shared-answer.js";
import type { AppServices } from "../../services.js";
import { searchAnswerSchema } from "./answers.js";
import { EVENT_STREAM_HEADERS, eventStream } from "./stream.js";

export const searchRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/forntend/indexsearch",
    {
      // Per IP, far above what a person searches: 429 请求过于频繁，请稍后再试 past it.
      config: { access: "public", rateLimit: rateLimitConfig("search") },
      schema: {
        tags: ["frontend"],
        summary: "搜索 (本站曲库; 外部来源以 provider 接入)",
        querystring: searchQuerySchema,
        response: { 200: searchAnswerSchema },
      },
    },
    async (request, reply) => {
      // The dashboard's searches per day: every search, answered from a kept answer or not, but
      // not its next pages; batched, no write here.
      if ((request.query.page ?? 1) === 1) services.counters.add("search");
      return sendShared(request, reply, await services.searchAnswers.get(request.query));
    },
  );

  api.get(
    "/api/forntend/indexsearch/stream",
    {
      // Not compressed: a compressor holds events back until its block fills (ADR 0050).
      compress: false,
      config: { access: "public", rateLimit: rateLimitConfig("search") },
      schema: {
        tags: ["frontend"],
        summary: "搜索 (逐个来源返回): text/event-stream, 每个来源一个 source 事件 (本站 local 在先), 最后 done",
        querystring: searchQuerySchema,
      },
    },
    async (request, reply) => {
      if ((request.query.page ?? 1) === 1) services.counters.add("search");
      // Bad input has been answered 4xx by the schema; a keyword that normalises to nothing is 400 here, before any event.
      const run = await services.searchAnswers.open(request.query);
      return reply.headers(EVENT_STREAM_HEADERS).send(eventStream(run, reply.raw));
    },
  );
};
