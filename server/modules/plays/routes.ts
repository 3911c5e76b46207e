import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { playReportResultSchema, playReportSchema } from "@contracts/plays";
import { PLAY_REPORT_PATH } from "@contracts/player-texts";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { visitorId } from "../../http/visitor.js";
import type { AppServices } from "../../services.js";
import { bearerToken } from "../accounts/routes.js";

export const playRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    PLAY_REPORT_PATH,
    {
      schema: {
        tags: ["frontend"],
        summary: "上报一次有效播放 (收听满30秒; 同一 playbackId 只计一次)",
        body: playReportSchema,
        response: { 200: envelope(playReportResultSchema) },
      },
    },
    async (request, reply) => {
      const visitor = visitorId(request, reply);
      // A guest's play counts as well: an unknown or expired token only loses the user link.
      const token = bearerToken(request);
      const user = token ? await services.sessions.currentUser(token).catch(() => null) : null;
      return ok(await services.plays.report(request.body, { visitorId: visitor, userId: user?.id ?? null }));
    },
  );
};
