import type { AppDatabase, DbLogger } from "./db/open.js";
import { categoryAnswers } from "./modules/catalog/category-answers.js";
import { categoryService } from "./modules/catalog/category-service.js";
import { navigationService } from "./modules/catalog/navigation-service.js";
import { suiteService } from "./modules/catalog/suite-service.js";
import { chartsService } from "./modules/charts/service.js";
import { homeService } from "./modules/home/service.js";
import { playsService } from "./modules/plays/service.js";
import { localProvider } from "./modules/search/local-provider.js";
import { searchService } from "./modules/search/service.js";
import { sessionService } from "./modules/accounts/session-service.js";
import { visitorService } from "./modules/visitors/service.js";
import { type Clock, systemClock } from "./lib/clock.js";

/**
 * The in-process services, built once per app. HTTP routes and SSR loaders (through the
 * React Router load context) share them, so pages never call our own API over HTTP.
 */
export function createServices(db: AppDatabase, logger: Pick<DbLogger, "warn">, clock: Clock = systemClock) {
  const charts = chartsService(db);
  const categories = categoryService(db, charts);
  // A kept answer whose background refresh fails is still served: say so in the log.
  const refreshFailed = (what: string) => (key: string, err: unknown) => logger.warn({ err, key }, `${what} refresh failed`);
  const categoryPageAnswers = categoryAnswers(categories, refreshFailed("category page"));
  return {
    search: searchService([localProvider(db)], {
      onProviderError: (source, err) => logger.warn({ err, source }, "search provider failed"),
    }),
    categories: {
      ...categories,
      /** After a back-office edit: the categories and the cached page answers both go. */
      invalidate() {
        categories.invalidate();
        categoryPageAnswers.invalidate();
      },
    },
    categoryAnswers: categoryPageAnswers,
    charts,
    home: homeService(db, charts),
    navigation: navigationService(db),
    suites: suiteService(db, undefined, refreshFailed("suite")),
    visitors: visitorService(db),
    sessions: sessionService(db),
    plays: playsService(db, clock),
  };
}

export type AppServices = ReturnType<typeof createServices>;
