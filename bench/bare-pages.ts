/**
 * The reference of bench/pages.ts: bare Fastify (no hooks, no plugins) sending the very gzip
 * bytes the app sent for each path, from a Map. Forked by bench/pages.ts, which sends
 * `{ pages: [path, base64 gzip, status][] }` and gets `{ port }` back.
 */
import Fastify from "fastify";

const app = Fastify({ logger: false });
const pages = new Map<string, { body: Buffer; status: number }>();
app.get("/*", (request, reply) => {
  const page = pages.get(request.url);
  if (!page) return reply.code(599).send();
  return reply.code(page.status).type("text/html; charset=utf-8").header("content-encoding", "gzip").send(page.body);
});

process.once("message", async (message) => {
  for (const [path, base64, status] of (message as { pages: [string, string, number][] }).pages) {
    pages.set(path, { body: Buffer.from(base64, "base64"), status });
  }
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
});
process.on("disconnect", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
