import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { SITE_NAME } from "@contracts/site";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { withAccess } from "./auth.js";

const DOCS_PREFIX = "/api/docs";

/** The document's title: the site's, as the settings (站点设置) name it now. */
export const apiDocsTitle = (siteTitle: string) => `${siteTitle} API`;

/**
 * OpenAPI document of every /api route, built from the same zod schemas that validate them.
 * Its title is the site's title in the settings when the document is asked for (ADR 0066): a
 * rename shows at the next request; `siteTitle` answers the default when they cannot be read.
 */
export async function registerApiDocs(app: FastifyInstance, { siteTitle }: { siteTitle: () => Promise<string> }) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: apiDocsTitle(SITE_NAME),
        description: "Public, user and admin APIs. Envelope: {code: 1|0, msg, time, data}.",
        version: "0.1.0",
      },
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      },
    },
    // Only the API is documented: pages, media, health and the docs themselves are not.
    transform: (route) => {
      const isApi = /^\/(api|pandaadmin)\//.test(route.url) && !route.url.startsWith(DOCS_PREFIX);
      if (!isApi) return { schema: { ...route.schema, hide: true }, url: route.url };
      return jsonSchemaTransform(route);
    },
  });
  // The title is read before the (synchronous) transform below, for the document's two forms only.
  const titles = new WeakMap<FastifyRequest, string>();
  const isDocument = (request: FastifyRequest) => /\/(json|yaml)$/.test(request.routeOptions.url ?? "");
  // The documentation pages are public (their own scope: swagger itself must stay on the root to see every route).
  await app.register(withAccess("public", swaggerUi), {
    routePrefix: DOCS_PREFIX,
    uiHooks: {
      preHandler: async (request: FastifyRequest) => {
        if (isDocument(request)) titles.set(request, await siteTitle());
      },
    },
    // A new top and info around the document @fastify/swagger made once (no deep copy each time).
    transformSpecificationClone: false,
    transformSpecification: (spec, request) => ({ ...spec, info: { ...spec.info, title: apiDocsTitle(titles.get(request) ?? SITE_NAME) } }),
  });
}
