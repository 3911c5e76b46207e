import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { categoryPageSchema, getSortQuerySchema } from "@contracts/category";
import { navItemSchema } from "@contracts/navigation";
import { musicInfoQuerySchema, musicInfoSchema } from "@contracts/suite";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendShared } from "../../http/shared-answer.js";
import { sendSpliced } from "../../http/spliced-answer.js";
import { visitorId } from "../../http/visitor.js";
import { suiteAnswer, suiteAnswerEnd } from "./suite-answer.js";
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
        summary: "套曲详情 (counts one view per visitor per day)",
        querystring: musicInfoQuerySchema,
        response: { 200: envelope(musicInfoSchema) },
      },
    },
    async (request, reply) => {
      const visitor = await visitorId(request, reply);
      const { kept, views } = await services.suites.viewed(request.query.id, visitor ?? undefined);
      return sendSpliced(request, reply, suiteAnswer(kept), suiteAnswerEnd(views));
    },
  );

  api.get(
    "/api/forntend/getsort",
    {
      config: { access: "public" },
      schema: {
        tags: ["frontend"],
        summary: "分类页 (10 a page; filter new|hot)",
        querystring: getSortQuerySchema,
        response: { 200: envelope(categoryPageSchema) },
      },
    },
    async (request, reply) => {
      return sendShared(request, reply, await services.categoryAnswers.get(request.query));
    },
  );
};
