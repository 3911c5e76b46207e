import type { AppDatabase, DbLogger } from "../db/open.js";
import type { RedisLink } from "../lib/redis.js";
import { blockAdminService } from "../modules/admin-content/block-admin.js";
import { categoryAdminService } from "../modules/admin-content/category-admin.js";
import { adminCommentService } from "../modules/admin-comments/service.js";
import { categoryAnswers } from "../modules/catalog/category-answers.js";
import { categoryService } from "../modules/catalog/category-service.js";
import { navigationService } from "../modules/catalog/navigation-service.js";
import { relatedService } from "../modules/catalog/related-service.js";
import { suiteService } from "../modules/catalog/suite-service.js";
import { viewBuffer } from "../modules/catalog/view-buffer.js";
import { redisViewLedger } from "../modules/catalog/view-ledger.js";
import { createChartScheduler } from "../modules/charts/scheduler.js";
import { chartsService } from "../modules/charts/service.js";
import { homeService } from "../modules/home/service.js";
import { seoService } from "../modules/seo/service.js";
import { suiteAdminService } from "../modules/suite-admin/service.js";
import { suiteListService } from "../modules/suite-list/service.js";
import type { CoreServices } from "./core.js";
import type { SourceServices } from "./sources.js";

export interface CatalogInputs {
  db: AppDatabase;
  logger: Pick<DbLogger, "warn" | "error" | "info" | "debug">;
  redis?: RedisLink;
  core: Pick<CoreServices, "bus" | "clock" | "leader" | "caches" | "writes" | "audit" | "siteSettings">;
  sources: Pick<SourceServices, "sourceDirectory">;
  publicUrl: string;
  chartsRebuildIntervalMs: number;
  uploadsDir: string;
}

/**
 * The catalogue as visitors read it (charts, categories, home, navigation, suites, sitemaps, the
 * suite list) and as the back office edits it (suites, categories, blocks, comments).
 */
export function catalogServices({ db, logger, redis, core, sources, publicUrl, chartsRebuildIntervalMs, uploadsDir }: CatalogInputs) {
  const { bus, clock, leader, caches, writes, audit, siteSettings: settings } = core;
  const charts = chartsService(db, { caches, bus, clock, sources: sources.sourceDirectory });
  const categories = categoryService(db, { charts, caches, settings });
  const views = viewBuffer(db, writes, redis ? redisViewLedger(redis) : undefined);
  return {
    charts,
    chartScheduler: createChartScheduler({ charts, intervalMs: chartsRebuildIntervalMs, logger, leader: () => leader.check() }),
    categories,
    categoryAnswers: categoryAnswers(categories, { caches }),
    home: homeService(db, { charts, caches, settings }),
    navigation: navigationService(db, { caches }),
    views,
    suites: suiteService(db, { caches, views, now: clock }),
    related: relatedService(db, { caches }),
    seo: seoService(db, { publicUrl, caches }),
    suiteList: suiteListService(db, { writes, audit, caches }),
    adminComments: adminCommentService(db, { writes, audit }),
    suiteAdmin: suiteAdminService(db, { writes, audit }),
    categoryAdmin: categoryAdminService(db, { writes, audit }),
    blockAdmin: blockAdminService(db, { writes, audit, uploadsDir, logger }),
  };
}
