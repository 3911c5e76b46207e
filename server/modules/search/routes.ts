import { searchQuerySchema } from "@contracts/search";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { rateLimitConfig } from "../../http/rate-limits.js";
import { sendShared } from "../../http/shared-answer.js";
import type { AppServices } from "../../services.js";
import { searchAnswerSchema } from "./answers.js";

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
};
