import type { MusicInfo } from "@contracts/suite";
import type { AppContext } from "../../web/app/lib/app-context";
import type { AppServices } from "../services.js";
import { keptPage, type KeptPage, NotKept } from "./kept-page.js";
import type { PageTarget } from "./page-keys.js";
import type { PageHandler } from "./shared.js";

/**
 * What a kept page was made from, besides its tags (gathered from the cached answers its
 * loaders read, lib/cache.ts): the suite a suite page shows, to compare with the kept suite.
 */
export interface PageSources {
  /** The suite data a suite page shows (the very object the suites cache keeps). */
  suite?: MusicInfo;
}

export interface Rendered {
  target: PageTarget;
  page: KeptPage;
  sources: PageSources;
}

/**
 * The services as a kept render sees them: the same, except that the suite shown is noted.
 * A suite page shows the count it was rendered with; the hydrated page shows the current one
 * from its view beacon (ADR 0053).
 */
function recordingServices(services: AppServices, sources: PageSources): AppServices {
  return {
    ...services,
    suites: {
      ...services.suites,
      musicInfo: async (id) => {
        const { kept, views } = await services.suites.current(id);
        sources.suite = kept;
        return { ...kept, views };
      },
    },
  };
}

/**
 * Renders a page to keep, through the same handler as any request, at its canonical address and
 * with no request headers, cookies or nonce: what it returns is the same for every visitor.
 * Throws NotKept when it must not be kept (a status other than 200/404, an error logged
 * while rendering).
 */
export async function renderToKeep(
  handle: PageHandler,
  target: PageTarget,
  services: AppServices,
  logError: (err: unknown) => void,
): Promise<Rendered> {
  const sources: PageSources = {};
  let failed = false;
  const context: AppContext = {
    services: recordingServices(services, sources),
    visitorId: async () => null,
    adminRole: async () => null,
    logError: (err) => {
      failed = true;
      logError(err);
    },
    cspNonce: "",
    // Nothing of one request in a page kept for all (a failed render is never kept).
    requestId: "",
  };
  const response = await handle(new Request(new URL(target.url, "http://localhost"), { method: "GET" }), context);
  const expected = target.kind === "not-found" ? 404 : 200;
  if (response.status !== expected) {
    await response.body?.cancel();
    throw new NotKept(`status ${response.status}`);
  }
  const html = await response.text();
  if (failed) throw new NotKept("an error was logged while rendering");
  const contentType = response.headers.get("content-type") ?? "text/html; charset=utf-8";
  return { target, sources, page: keptPage(response.status, contentType, html) };
}
