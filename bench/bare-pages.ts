/**
 * The reference of bench/pages.ts: bare Fastify (no hooks, no plugins) sending the very bytes
 * the app sent for each path (gzip, or plain where the app did not compress), with the app's
 * headers (its security headers, CSP, ETag, cache policy, and the first answer's request id and
 * new visitor's cookie, sent again as they were; not the date and length, which Node writes for
 * each answer), from a Map.
 * Forked by bench/pages.ts, which sends
 * `{ pages: [path, base64 body, status, type, encoding?, headers][] }` and gets `{ port }` back.
 */
import Fastify from "fastify";

const app = Fastify({ logger: false });
const pages = new Map<string, { body: Buffer; status: number; type: string; encoding?: string; headers: Record<string, string> }>();
app.get("/*", (request, reply) => {
  const page = pages.get(request.url);
  if (!page) return reply.code(599).send();
  reply.code(page.status).headers(page.headers).type(page.type);
  if (page.encoding) reply.header("content-encoding", page.encoding);
  return reply.send(page.body);
});

process.once("message", async (message) => {
  for (const [path, base64, status, type, encoding, headers] of (message as { pages: [string, string, number, string, string | undefined, Record<string, string>][] }).pages) {
    pages.set(path, { body: Buffer.from(base64, "base64"), status, type, encoding, headers });
  }
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
});
process.on("disconnect", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
