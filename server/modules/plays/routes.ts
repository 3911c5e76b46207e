import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { playReportResultSchema, playReportSchema } from "@contracts/plays";
import { PLAY_REPORT_PATH } from "@contracts/player-texts";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { visitorId } from "../../http/visitor.js";
import type { AppServices } from "../../services.js";

export const playRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    PLAY_REPORT_PATH,
    {
      // A guest's play counts as well; a signed-in member's play is linked to the account.
      config: { access: "public", optionalUser: true },
      schema: {
        tags: ["frontend"],
        summary: "上报一次有效播放 (收听满30秒; 同一 playbackId 只计一次)",
        body: playReportSchema,
        response: { 200: envelope(playReportResultSchema) },
      },
    },
    async (request, reply) => {
      const visitor = visitorId(request, reply);
      // An unknown, expired or disabled member's token only loses the user link.
      return ok(await services.plays.report(request.body, { visitorId: visitor, userId: request.user?.id ?? null }));
    },
  );
};
