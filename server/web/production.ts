import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { createRequestHandler, type ServerBuild } from "react-router";
import { type PageHandler, routerContext } from "./shared";

const IMMUTABLE = "public, max-age=31536000, immutable";
/** Unhashed public files (favicon, robots.txt, images) may change with a deploy. */
const SHORT = "public, max-age=3600";

/** Serves build/client and renders pages with the built server module. */
export async function setupProduction(scope: FastifyInstance, root: string): Promise<{ handle: PageHandler; build: ServerBuild }> {
  const buildDir = path.resolve(root, "build");
  const serverEntry = path.join(buildDir, "server", "index.js");
  if (!existsSync(serverEntry)) {
    throw new Error(`Web build missing (${serverEntry}): run \`npm run build\` first.`);
  }
  // One route per file (wildcard: false), so the page catch-all keeps every other URL.
  await scope.register(fastifyStatic, {
    root: path.join(buildDir, "client"),
    wildcard: false,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const rel = path.relative(path.join(buildDir, "client"), filePath);
      reply.header("cache-control", rel.startsWith(`assets${path.sep}`) ? IMMUTABLE : SHORT);
    },
  });
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  const handler = createRequestHandler(build, "production");
  return { handle: (request, context) => handler(request, routerContext(build, context)), build };
}
