import { bigint, date, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { admins } from "./accounts.js";
import { createdAt, tstz } from "./columns.js";

/** Who did what in /panda. Rows outlive the admin account (admin_id set null). */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    detail: jsonb("detail").$type<Record<string, unknown>>(),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_admin_idx").on(t.adminId, t.createdAt),
  ],
);

/** Small key/value state of the installation (e.g. progress of the demo seed). */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<unknown>().notNull(),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});

/**
 * Per-day tallies of things not stored row by row (today: searches), by China day (chinaDay).
 * Written in batches from an in-process buffer (modules/dashboard/counter-buffer.ts), never
 * once per request; read by the dashboard's 30-day chart.
 */
export const dailyCounters = pgTable(
  "daily_counters",
  {
    day: date("day", { mode: "string" }).notNull(),
    name: text("name").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ name: "daily_counters_pk", columns: [t.day, t.name] })],
);
