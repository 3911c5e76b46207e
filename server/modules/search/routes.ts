import { envelopeSchema as envelope, ok } from "@contracts/envelope";
import { searchQuerySchema, searchResultSchema } from "@contracts/search";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppDatabase } from "../../db/open.js";
import { localProvider } from "./local-provider.js";
import type { SearchProvider } from "./provider.js";
import { searchService } from "./service.js";

export const searchRoutes: FastifyPluginAsync<{ db: AppDatabase; providers?: SearchProvider[] }> = async (app, opts) => {
  const service = searchService(opts.providers ?? [localProvider(opts.db)], {
    onProviderError: (source, err) => app.log.warn({ err, source }, "search provider failed"),
  });
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/forntend/indexsearch",
    {
      schema: {
        tags: ["frontend"],
        summary: "搜索 (本站曲库; 外部来源以 provider 接入)",
        querystring: searchQuerySchema,
        response: { 200: envelope(searchResultSchema) },
      },
    },
    async (request) => ok(await service.search(request.query)),
  );
};
