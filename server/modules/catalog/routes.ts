import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { getSortQuerySchema } from "@contracts/category";
import { navItemSchema } from "@contracts/navigation";
import { relatedSchema } from "@contracts/related";
import { musicInfoQuerySchema, viewBeaconSchema, viewCountSchema } from "@contracts/suite";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendShared } from "../../http/shared-answer.js";
import { knownVisitorId, visitorId } from "../../http/visitor.js";
import { categoryAnswerSchema } from "./category-answers.js";
import { suiteAnswer, suiteAnswerSchema } from "./suite-answer.js";
import type { AppServices } from "../../services.js";

export const catalogRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/forntend/gettopnav",
    {
      config: { access: "public" },
      schema: {
        tags: ["frontend"],
        summary: "顶部导航 (categories as menu items with submenus)",
        response: { 200: envelope(z.array(navItemSchema)) },
      },
    },
    async () => ok(await services.navigation.topNav()),
  );

  api.get(
    "/api/forntend/getmusicinfo",
    {
      config: { access: "public" },
      schema: {
        tags: ["frontend"],
        summary: "套曲详情 (the same bytes for everyone; gives a new visitor the vid cookie; counts no view: the page's beacon does)",
        querystring: musicInfoQuerySchema,
        response: { 200: suiteAnswerSchema },
      },
    },
    async (request, reply) => {
      // A new visitor's cookie goes out (a header): a later view beacon carries it.
      await visitorId(request, reply);
      const { kept } = await services.suites.current(request.query.id);
      return sendShared(request, reply, suiteAnswer(kept));
    },
  );

  api.post(
    "/api/forntend/view",
    {
      config: { access: "public" },
      schema: {
        tags: ["frontend"],
        summary: "浏览计数 (the suite page's beacon after hydration: one view per visitor per day, answered once committed; 403 without the vid cookie)",
        body: viewBeaconSchema,
        response: { 200: envelope(viewCountSchema) },
      },
    },
    async (request) => ok(await services.suites.view(request.body.id, knownVisitorId(request))),
  );

  api.get(
    "/api/forntend/related",
    {
      config: { access: "public" },
      schema: {
        tags: ["frontend"],
        summary: "套曲页的该DJ的更多作品与相关推荐 (read after hydration: the kept page stays the same bytes; ADR 0062)",
        querystring: musicInfoQuerySchema,
        response: { 200: envelope(relatedSchema) },
      },
    },
    async (request) => ok(await services.related.of(request.query.id)),
  );

  api.get(
    "/api/forntend/getsort",
    {
      config: { access: "public" },
      schema: {
        tags: ["frontend"],
        summary: "分类页 (10 a page; filter new|hot)",
        querystring: getSortQuerySchema,
        response: { 200: categoryAnswerSchema },
      },
    },
    async (request, reply) => {
      return sendShared(request, reply, await services.categoryAnswers.get(request.query));
    },
  );
};
