import { z } from "zod";
import {
  DASHBOARD_SERIES_DAYS_DEFAULT,
  DASHBOARD_SERIES_DAYS_MAX,
  type DashboardAnswer,
  dashboardMessages,
  type DashboardSeriesAnswer,
} from "./dashboard-texts";
import { sourceHealthSchema } from "./source-health";

export * from "./dashboard-texts";

const count = z.number().int().min(0);
const statSchema = z.object({
  value: count.describe("卡片数字: 总数 (套曲、用户) 或今日数 (播放、下载)"),
  today: count.describe("今日 (北京时间) 新增"),
  yesterday: count.describe("昨日新增"),
});

/** GET /api/pandaadmin/dashboard. */
export const dashboardSchema = z.object({
  day: z.string().describe("统计所用的日期 (北京时间, YYYY-MM-DD)"),
  stats: z.object({
    suites: statSchema.describe("套曲 (kind=mix, 含禁用)"),
    users: statSchema,
    playsToday: statSchema.describe("有效播放 (听满 30 秒)"),
    downloadsToday: statSchema,
  }),
  system: z.object({
    appVersion: z.string(),
    os: z.string(),
    nodeVersion: z.string(),
    dbEngine: z.enum(["pglite", "postgres"]),
    dbVersion: z.string().describe("select version()"),
    uptimeSec: count,
    dataDir: z.string(),
    dataDirBytes: count,
    dataDirPartial: z.boolean(),
  }),
  sources: z.array(sourceHealthSchema),
  caches: z
    .array(
      z.object({
        name: z.string(),
        entries: count,
        bytes: count,
        maxBytes: count,
        hits: count,
        misses: count,
        drops: count.describe("被变更事件按标签丢弃"),
        evictions: count.describe("超出容量被挤出"),
      }),
    )
    .describe("本实例的缓存 (实时读取)"),
  logins: z.array(
    z.object({
      id: z.number().int(),
      admin: z.string(),
      success: z.boolean(),
      ip: z.string(),
      location: z.string(),
      createdAt: z.string().describe("ISO 8601"),
    }),
  ),
  generatedAt: z.string(),
}) satisfies z.ZodType<DashboardAnswer>;

export const dashboardSeriesQuerySchema = z.object({
  days: z.preprocess(
    (v) => (v === "" || v === undefined ? String(DASHBOARD_SERIES_DAYS_DEFAULT) : v),
    z
      .string({ error: dashboardMessages.badDays })
      .regex(/^\d{1,3}$/, { error: dashboardMessages.badDays })
      .transform(Number)
      .pipe(z.number().int().min(1, { error: dashboardMessages.badDays }).max(DASHBOARD_SERIES_DAYS_MAX, { error: dashboardMessages.badDays })),
  ).describe(`天数 (默认 ${DASHBOARD_SERIES_DAYS_DEFAULT}, 最多 ${DASHBOARD_SERIES_DAYS_MAX})`),
});

/** GET /api/pandaadmin/dashboard/series. */
export const dashboardSeriesSchema = z.object({
  days: z.array(z.string()),
  plays: z.array(count),
  views: z.array(count),
  signups: z.array(count),
  searches: z.array(count),
}) satisfies z.ZodType<DashboardSeriesAnswer>;
