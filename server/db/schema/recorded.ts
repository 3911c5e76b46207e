import { customType, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, idColumn, oneOf } from "./columns.js";

/** Bytes as they came (GBK pages survive; the hash is of these bytes). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
  toDriver: (value) => value,
});

/** The plugin method (or built-in step) an answer was recorded for, replayed with the same arguments. */
export interface RecordedCall {
  method: string;
  args: unknown[];
}

/**
 * Answers a source site gave (issue 22, ADR 0051): kept when a canary sees drift or an operator
 * saves one from a plugin's try, and replayed through parsers and plugin versions. A try's
 * answers wait as `trial` rows until saved (any instance can save them) or swept.
 */
export const recordedAnswers = pgTable(
  "recorded_answers",
  {
    id: idColumn(),
    source: text("source").notNull(),
    state: text("state").notNull().default("kept"),
    /** The try the answer came from, while it waits to be saved. */
    trialId: text("trial_id"),
    url: text("url").notNull(),
    status: integer("status").notNull(),
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    body: bytea("body").notNull(),
    bytes: integer("bytes").notNull(),
    sha256: text("sha256").notNull(),
    reason: text("reason").notNull(),
    call: jsonb("call").$type<RecordedCall | null>(),
    createdAt: createdAt(),
  },
  (t) => [index("recorded_answers_source_idx").on(t.source, t.state, t.id), index("recorded_answers_trial_idx").on(t.trialId), oneOf("recorded_answers_state_ck", t.state, ["kept", "trial"])],
);
