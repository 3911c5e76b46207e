import path from "node:path";
import middie from "@fastify/middie";
import type { FastifyInstance } from "fastify";
import { createRequestHandler, type ServerBuild } from "react-router";
import { isExcluded, type PageHandler, routerContext } from "./shared";

/**
 * Vite in middleware mode: it serves modules and HMR (over our own HTTP server, one port),
 * and every page request loads the current server build through Vite, so edits under web/
 * apply without restarting the process.
 */
export async function setupDevelopment(
  scope: FastifyInstance,
  root: string,
  excluded: readonly string[],
): Promise<PageHandler> {
  const { createServer } = await import("vite");
  const vite = await createServer({
    root,
    configFile: path.join(root, "vite.config.ts"),
    appType: "custom",
    server: { middlewareMode: true, hmr: { server: scope.server } },
  });
  scope.addHook("onClose", () => vite.close());
  await scope.register(middie);
  scope.use((req, res, next) => {
    if (isExcluded(req.url ?? "/", excluded)) return next();
    vite.middlewares(req, res, next);
  });
  return async (request, context) => {
    const build = (await vite.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
    return createRequestHandler(build, "development")(request, routerContext(build, context));
  };
}
