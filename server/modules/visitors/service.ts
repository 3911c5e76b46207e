import type { AppDatabase } from "../../db/open.js";
import { loadVisitorSecret } from "./secret.js";
import { type VisitorCookies, visitorCookies } from "./visitor-cookie.js";

/**
 * Signs and checks visitor ids with the database's visitor secret, which `load()` reads (or
 * makes) once at start-up. Requests reach it through `visitorId()` (server/http/visitor.ts),
 * the one way the API and the pages read the visitor cookie.
 */
export function visitorService(db: AppDatabase) {
  let cookies: VisitorCookies | undefined;
  const ready = () => {
    if (!cookies) throw new Error("visitor secret not loaded: call services.visitors.load() at start-up");
    return cookies;
  };
  return {
    async load() {
      cookies = visitorCookies(await loadVisitorSecret(db));
    },
    verify: (value: string | undefined) => ready().verify(value),
    issue: (secure: boolean) => ready().issue(secure),
    cookieValue: (id: string) => ready().value(id),
  };
}

export type VisitorService = ReturnType<typeof visitorService>;
