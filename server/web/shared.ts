import { RouterContextProvider, type ServerBuild } from "react-router";
import type { AppContext } from "../../web/app/lib/app-context";
import type * as EntryServer from "../../web/app/entry.server";

/** Renders one page request (production build or Vite's current build in development). */
export type PageHandler = (request: Request, context: AppContext) => Promise<Response>;

/**
 * React Router's request context holding `values` under the key the build's own modules use
 * (the server's copy of web/app/lib/app-context.ts would be another key): entry.server
 * re-exports it.
 */
export function routerContext(build: ServerBuild, values: AppContext): RouterContextProvider {
  const { appContext } = build.entry.module as unknown as typeof EntryServer;
  return new RouterContextProvider(new Map([[appContext, values]]));
}

/**
 * Paths that belong to the API, media and health plugins; an unknown one is their 404.
 * (/pandaadmin/ holds the spec's admin calls outside /api, e.g. /pandaadmin/index/logout.)
 */
export const DEFAULT_EXCLUDED_PREFIXES = [
  "/api/",
  "/pandaadmin/",
  "/media/",
  "/uploads/",
  "/healthz",
] as const;

/** Whether a URL lies under one of the prefixes, matched by whole path segments. */
export function isExcluded(url: string, prefixes: readonly string[]): boolean {
  const path = url.split("?", 1)[0];
  return prefixes.some((prefix) => {
    const bare = prefix.replace(/\/$/, "");
    return path === bare || path.startsWith(`${bare}/`);
  });
}

/**
 * The URL with a run of leading slashes or backslashes (`//`, `///x`, `/\\x`) made one slash.
 * Such a path is not ours, and a browser reads `//x` in a Location as the host `x`, so the
 * result never starts with two of them.
 */
export function withoutLeadingSlashes(url: string): string {
  return /^[/\\]{2}/.test(url) ? `/${url.replace(/^[/\\]+/, "")}` : url;
}
