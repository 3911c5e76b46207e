import type { FastifyPluginAsync } from "fastify";
import { notFound } from "../../errors.js";
import { declareAccess } from "../../http/auth.js";
import { sendShared } from "../../http/shared-answer.js";
import type { AppServices } from "../../services.js";

const CACHE = "public, max-age=3600";

export const seoRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  declareAccess(app, "public");
  const { seo } = services;
  const hide = { schema: { hide: true } };

  app.get("/robots.txt", hide, async (_req, reply) =>
    reply.type("text/plain; charset=utf-8").header("cache-control", CACHE).send(seo.robots()),
  );
  // Kept, compressed once and sent with an ETag (shared-answer.ts): an items sitemap is ~5 MB.
  app.get("/sitemap.xml", hide, async (request, reply) => sendShared(request, reply.header("cache-control", CACHE), await seo.index()));
  app.get("/sitemap-pages.xml", hide, async (request, reply) =>
    sendShared(request, reply.header("cache-control", CACHE), await seo.pages()),
  );
  app.get<{ Params: { n: string } }>("/sitemap-items-:n(^\\d{1,6}).xml", hide, async (request, reply) => {
    const xml = await seo.items(Number(request.params.n));
    if (xml === null) throw notFound("页面不存在");
    return sendShared(request, reply.header("cache-control", CACHE), xml);
  });
};
