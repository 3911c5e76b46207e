import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { serverMessages } from "@contracts/messages";
import { playReportResultSchema, playReportSchema, playStartResultSchema, playStartSchema } from "@contracts/plays";
import { PLAY_REPORT_PATH, PLAY_START_PATH } from "@contracts/player-texts";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../errors.js";
import { rateLimitConfig } from "../../http/rate-limits.js";
import { visitorId } from "../../http/visitor.js";
import type { AppServices } from "../../services.js";

/** A play is bound to a visitor: without one (its IP had its share of new ids) nothing counts. */
async function requireVisitor(request: FastifyRequest, reply: FastifyReply): Promise<string> {
  const visitor = await visitorId(request, reply);
  if (!visitor) throw new AppError(429, serverMessages.tooManyRequests);
  return visitor;
}

export const playRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    PLAY_START_PATH,
    {
      config: { access: "public", rateLimit: rateLimitConfig("playStart") },
      schema: {
        tags: ["frontend"],
        summary: "上报播放开始 (播放器真正开始播放时; 有效播放须在此后至少30秒上报)",
        body: playStartSchema,
        response: { 200: envelope(playStartResultSchema) },
      },
    },
    async (request, reply) => ok(await services.plays.start(request.body, { visitorId: await requireVisitor(request, reply) })),
  );

  api.post(
    PLAY_REPORT_PATH,
    {
      // A signed-in member's play is linked to the account.
      config: { access: "public", optionalUser: true, rateLimit: rateLimitConfig("playReport") },
      schema: {
        tags: ["frontend"],
        summary: "上报一次有效播放 (服务器见到播放开始至少30秒后; 同一 playbackId 只计一次)",
        body: playReportSchema,
        response: { 200: envelope(playReportResultSchema) },
      },
    },
    async (request, reply) => {
      const visitor = await requireVisitor(request, reply);
      // A guest's play counts as well; an unknown, expired or disabled member's token only loses the user link.
      return ok(await services.plays.report(request.body, { visitorId: visitor, userId: request.user?.id ?? null }));
    },
  );
};
