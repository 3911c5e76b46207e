import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { withAccess } from "./auth.js";

const DOCS_PREFIX = "/api/docs";

/** OpenAPI document of every /api route, built from the same zod schemas that validate them. */
export async function registerApiDocs(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: "DJ搜索引擎网 API",
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
  // The documentation pages are public (their own scope: swagger itself must stay on the root to see every route).
  await app.register(withAccess("public", swaggerUi), { routePrefix: DOCS_PREFIX });
}
