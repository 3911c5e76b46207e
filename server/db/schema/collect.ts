import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { collectedItems } from "./catalog.js";
import { createdAt, oneOf, tstz, updatedAt } from "./columns.js";

/**
 * Collection (issue 11): durable jobs that walk a source's charts and categories page by page.
 * A job's plan is fixed when it is queued; its cursor (unit_index, next_page) moves in the same
 * transaction that stores a page's items, so a job killed at any instant resumes at the first
 * page not yet stored: no page twice, none lost. One runner at a time holds a job, by lease
 * (`locked_by`, `locked_until`), claimed with FOR UPDATE SKIP LOCKED across instances.
 */

export const COLLECT_JOB_STATES = ["queued", "running", "done", "failed", "cancelled"] as const;
export type CollectJobState = (typeof COLLECT_JOB_STATES)[number];
export const COLLECT_TRIGGERS = ["schedule", "manual"] as const;
export type CollectTrigger = (typeof COLLECT_TRIGGERS)[number];

/** One list a job walks: a chart (one page) or a category (up to `maxPages`). */
export type CollectUnit =
  | { type: "chart"; period: "day" | "week" | "month" | "quarter"; kind: "mix" | "single"; maxPages: number }
  | { type: "category"; key: string; name: string; kind?: "mix" | "single"; maxPages: number };

export const collectJobs = pgTable(
  "collect_jobs",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    source: text("source").notNull(),
    trigger: text("trigger", { enum: COLLECT_TRIGGERS }).notNull(),
    state: text("state", { enum: COLLECT_JOB_STATES }).notNull().default("queued"),
    plan: jsonb("plan").$type<CollectUnit[]>().notNull(),
    /** The cursor: the unit being walked and its next page (1-based). */
    unitIndex: integer("unit_index").notNull().default(0),
    nextPage: integer("next_page").notNull().default(1),
    pagesDone: integer("pages_done").notNull().default(0),
    itemsFound: integer("items_found").notNull().default(0),
    itemsNew: integer("items_new").notNull().default(0),
    errors: integer("errors").notNull().default(0),
    lastError: text("last_error"),
    /** The runner holding the job and until when (a dead runner's lease runs out). */
    lockedBy: text("locked_by"),
    lockedUntil: tstz("locked_until"),
    /** Times a runner took the job (more than 1 = resumed after a stop). */
    attempts: integer("attempts").notNull().default(0),
    /** The admin who started a manual job. */
    requestedBy: integer("requested_by"),
    createdAt: createdAt(),
    startedAt: tstz("started_at"),
    finishedAt: tstz("finished_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    oneOf("collect_jobs_state_check", t.state, COLLECT_JOB_STATES),
    oneOf("collect_jobs_trigger_check", t.trigger, COLLECT_TRIGGERS),
    // At most one unfinished job per source: queueing is idempotent across instances.
    uniqueIndex("collect_jobs_open_source_uq").on(t.source).where(sql`${t.state} in ('queued', 'running')`),
    index("collect_jobs_state_idx").on(t.state, t.id),
    index("collect_jobs_source_idx").on(t.source, t.id),
  ],
);

/** The page log of a job: one row per stored page (progress detail; proves no page twice). */
export const collectJobPages = pgTable(
  "collect_job_pages",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => collectJobs.id, { onDelete: "cascade" }),
    unitIndex: integer("unit_index").notNull(),
    page: integer("page").notNull(),
    items: integer("items").notNull().default(0),
    newItems: integer("new_items").notNull().default(0),
    /** Set when the page could not be read (the job goes on with the next unit). */
    error: text("error"),
    doneAt: tstz("done_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "collect_job_pages_pk", columns: [t.jobId, t.unitIndex, t.page] })],
);

/** Each source's own charts as last collected (the charts panel's site switch shows them). */
export const sourceChartEntries = pgTable(
  "source_chart_entries",
  {
    site: text("site").notNull(),
    kind: text("kind", { enum: ["mix", "single"] }).notNull(),
    period: text("period", { enum: ["day", "week", "month", "quarter"] }).notNull(),
    rank: integer("rank").notNull(),
    collectedItemId: integer("collected_item_id")
      .notNull()
      .references(() => collectedItems.id, { onDelete: "cascade" }),
    collectedAt: tstz("collected_at").notNull().defaultNow(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: "source_chart_entries_pk", columns: [t.site, t.kind, t.period, t.rank] }),
    index("source_chart_entries_item_idx").on(t.collectedItemId),
  ],
);
