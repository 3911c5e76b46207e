import type { FastifyInstance } from "fastify";
import { multipartBody } from "../../../testing/multipart.js";

/** POST /api/pandaadmin/plugins with the code as an uploaded plugin.js, as the back office sends it. */
export function uploadPlugin(app: FastifyInstance, headers: Record<string, string>, code: string) {
  const body = multipartBody({ name: "plugin.js", type: "application/javascript", bytes: Buffer.from(code) });
  return app.inject({ method: "POST", url: "/api/pandaadmin/plugins", headers: { ...headers, ...body.headers }, payload: body.payload });
}
