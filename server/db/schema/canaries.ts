import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The last canary result of each source (issue 22, ADR 0049): kept so that "since when" and
 * "last ok" survive a restart and every instance shows the same. One row per source code; no
 * foreign key (a plugin's or a generic source's code may come and go).
 */
export const sourceCanaries = pgTable("source_canaries", {
  source: text("source").primaryKey(),
  /** ok | outage | blocked | drift */
  state: text("state").notNull(),
  /** When the last run ended. */
  at: timestamp("at", { withTimezone: true }).notNull(),
  /** When the source entered `state` (the first run that found it). */
  since: timestamp("since", { withTimezone: true }).notNull(),
  lastOkAt: timestamp("last_ok_at", { withTimezone: true }),
  /** The first failing check's name, null when ok. */
  failingStep: text("failing_step"),
  checks: jsonb("checks").$type<{ name: string; ok: boolean; state: string; detail: string }[]>().notNull(),
});
