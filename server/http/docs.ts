import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { createJsonSchemaTransform } from "fastify-type-provider-zod";

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
    transform: createJsonSchemaTransform({ skipList: ["/healthz", "/media/*", "/uploads/*"] }),
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });
}
