/**
 * Test helpers: a bare Fastify with only the media routes on a real port, and a raw HTTP client
 * that sends the request path byte for byte (fetch would normalise "..").
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { mediaRoutes, type MediaRoutesOptions } from "./routes.js";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export async function startMediaServer(
  opts: MediaRoutesOptions,
  setup?: (app: FastifyInstance) => void | Promise<void>,
): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify();
  // Set-up first: a root hook only reaches plugins registered after it.
  await setup?.(app);
  await app.register(mediaRoutes, opts);
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, port: (app.server.address() as AddressInfo).port };
}

export function rawRequest(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
