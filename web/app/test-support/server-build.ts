import {
  type ServerBuild,
  UNSAFE_withComponentProps as withComponentProps,
  UNSAFE_withErrorBoundaryProps as withErrorBoundaryProps,
} from "react-router";
import * as entryServer from "../entry.server";

type RouteModule = Record<string, unknown>;

export interface TestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: RouteModule;
}

/** What React Router's Vite plugin does to route modules: components get their props. */
function asBuilt(module: RouteModule): RouteModule {
  const built = { ...module };
  if (typeof module.default === "function")
    built.default = withComponentProps(module.default as never);
  if (typeof module.ErrorBoundary === "function") {
    built.ErrorBoundary = withErrorBoundaryProps(module.ErrorBoundary as never);
  }
  return built;
}

/**
 * A ServerBuild made of the real entry.server and the given route modules, so unit tests can
 * send requests through React Router's real document pipeline (status codes, re-rendering
 * on render errors, error boundaries) without a Vite build.
 */
export function testServerBuild(routes: TestRoute[]): ServerBuild {
  const serverRoutes: ServerBuild["routes"] = {};
  const assetRoutes: ServerBuild["assets"]["routes"] = {};
  for (const r of routes) {
    serverRoutes[r.id] = {
      id: r.id,
      parentId: r.parentId,
      path: r.path,
      index: r.index,
      caseSensitive: undefined,
      module: asBuilt(r.module) as never,
    };
    assetRoutes[r.id] = {
      id: r.id,
      parentId: r.parentId,
      path: r.path,
      index: r.index,
      hasAction: false,
      hasLoader: "loader" in r.module,
      hasClientAction: false,
      hasClientLoader: false,
      hasClientMiddleware: false,
      hasErrorBoundary: "ErrorBoundary" in r.module,
      module: `/test/${r.id}.js`,
      imports: [],
      css: [],
      clientActionModule: undefined,
      clientLoaderModule: undefined,
      clientMiddlewareModule: undefined,
      hydrateFallbackModule: undefined,
    };
  }
  return {
    entry: { module: entryServer },
    routes: serverRoutes,
    assets: {
      entry: { module: "/test/entry.client.js", imports: [] },
      routes: assetRoutes,
      url: "/test/manifest.js",
      version: "test",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {
      unstable_enableNodeReadableStream: false,
      unstable_optimizeDeps: false,
    },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}
