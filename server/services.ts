import type { AppDatabase } from "./db/open.js";
import { navigationService } from "./modules/catalog/navigation-service.js";
import { suiteService } from "./modules/catalog/suite-service.js";
import { visitorFromCookieHeader } from "./modules/catalog/visitors.js";
import { chartsService } from "./modules/charts/service.js";
import { sessionService } from "./modules/accounts/session-service.js";

/**
 * The in-process services, built once per app. HTTP routes and SSR loaders (through the
 * React Router load context) share them, so pages never call our own API over HTTP.
 */
export function createServices(db: AppDatabase) {
  return {
    charts: chartsService(db),
    navigation: navigationService(db),
    suites: suiteService(db),
    visitors: { fromCookieHeader: visitorFromCookieHeader },
    sessions: sessionService(db),
  };
}

export type AppServices = ReturnType<typeof createServices>;
