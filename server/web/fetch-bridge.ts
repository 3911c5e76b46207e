import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The request's absolute URL. Built by parts, never by resolving the raw path against the
 * origin: a path like `//x` would name another host, or throw. The Host was checked
 * (registerHostCheck, 400 when malformed); an origin that still fails is `localhost`.
 */
function absoluteUrl(request: FastifyRequest): URL {
  let url: URL;
  try {
    url = new URL(`${request.protocol}://${request.host || "localhost"}`);
  } catch {
    url = new URL("http://localhost");
  }
  const q = request.url.indexOf("?");
  url.pathname = q < 0 ? request.url : request.url.slice(0, q);
  if (q >= 0) url.search = request.url.slice(q);
  return url;
}

/**
 * Fastify request -> Fetch Request for React Router. Only GET/HEAD reach the web handler,
 * so there is never a body to forward. The signal aborts rendering when the client leaves.
 */
export function toFetchRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const url = absoluteUrl(request);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  const controller = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return new Request(url, { method: request.method, headers, signal: controller.signal });
}

/** Fetch Response -> Fastify reply: status, every header (each Set-Cookie kept), streamed body. */
export function sendFetchResponse(reply: FastifyReply, response: Response) {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    reply.header(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header("set-cookie", cookies);
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>));
}
