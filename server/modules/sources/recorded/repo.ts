import { and, asc, desc, eq, lt, sql } from "drizzle-orm";
import type { AppDatabase } from "../../../db/types.js";
import { recordedAnswers } from "../../../db/schema/index.js";

/** The SQL of recorded answers (issue 22): kept rows per source, a try's waiting rows, the bounds. */

export type RecordedRow = typeof recordedAnswers.$inferSelect;
export type RecordedInsert = typeof recordedAnswers.$inferInsert;
/** A row without its body: what lists show. */
export type RecordedSummary = Omit<RecordedRow, "body">;

const summary = {
  id: recordedAnswers.id,
  source: recordedAnswers.source,
  state: recordedAnswers.state,
  trialId: recordedAnswers.trialId,
  url: recordedAnswers.url,
  status: recordedAnswers.status,
  headers: recordedAnswers.headers,
  bytes: recordedAnswers.bytes,
  sha256: recordedAnswers.sha256,
  reason: recordedAnswers.reason,
  call: recordedAnswers.call,
  createdAt: recordedAnswers.createdAt,
};

export function recordedRepo(db: Pick<AppDatabase, "select" | "insert" | "update" | "delete">) {
  return {
    async insert(rows: RecordedInsert[]): Promise<number[]> {
      if (!rows.length) return [];
      return (await db.insert(recordedAnswers).values(rows).returning({ id: recordedAnswers.id })).map((r) => r.id);
    },
    /** Kept answers of a source, newest first, without bodies. */
    async list(source: string): Promise<RecordedSummary[]> {
      return db.select(summary).from(recordedAnswers).where(and(eq(recordedAnswers.source, source), eq(recordedAnswers.state, "kept"))).orderBy(desc(recordedAnswers.id));
    },
    /** Every kept answer of a source with its body, oldest first (replays; the newest of one URL wins). */
    async bodies(source: string): Promise<RecordedRow[]> {
      return db.select().from(recordedAnswers).where(and(eq(recordedAnswers.source, source), eq(recordedAnswers.state, "kept"))).orderBy(asc(recordedAnswers.id));
    },
    async get(id: number): Promise<RecordedRow | undefined> {
      const [row] = await db.select().from(recordedAnswers).where(eq(recordedAnswers.id, id));
      return row;
    },
    async trial(trialId: string): Promise<RecordedSummary[]> {
      return db.select(summary).from(recordedAnswers).where(and(eq(recordedAnswers.trialId, trialId), eq(recordedAnswers.state, "trial"))).orderBy(asc(recordedAnswers.id));
    },
    async keepTrial(id: number, reason: string): Promise<RecordedSummary | undefined> {
      const [row] = await db.update(recordedAnswers).set({ state: "kept", trialId: null, reason }).where(and(eq(recordedAnswers.id, id), eq(recordedAnswers.state, "trial"))).returning(summary);
      return row;
    },
    async remove(id: number): Promise<boolean> {
      return (await db.delete(recordedAnswers).where(and(eq(recordedAnswers.id, id), eq(recordedAnswers.state, "kept"))).returning({ id: recordedAnswers.id })).length > 0;
    },
    /** A try's answers not saved in time. */
    async sweepTrials(before: Date): Promise<void> {
      await db.delete(recordedAnswers).where(and(eq(recordedAnswers.state, "trial"), lt(recordedAnswers.createdAt, before)));
    },
    /**
     * Drops a source's oldest kept answers until at most `count` remain and their bodies add up
     * to at most `bytes`. The newest answer always stays (the caller refuses one that is too large).
     */
    async bound(source: string, count: number, bytes: number): Promise<number> {
      const rows = await db
        .select({ id: recordedAnswers.id, bytes: recordedAnswers.bytes })
        .from(recordedAnswers)
        .where(and(eq(recordedAnswers.source, source), eq(recordedAnswers.state, "kept")))
        .orderBy(desc(recordedAnswers.id));
      let total = 0;
      const drop: number[] = [];
      rows.forEach((row, i) => {
        total += row.bytes;
        if (i > 0 && (i >= count || total > bytes)) drop.push(row.id);
      });
      if (!drop.length) return 0;
      await db.delete(recordedAnswers).where(sql`${recordedAnswers.id} in (${sql.join(drop.map((id) => sql`${id}`), sql`, `)})`);
      return drop.length;
    },
    async sources(): Promise<{ source: string; count: number; bytes: number }[]> {
      return db
        .select({ source: recordedAnswers.source, count: sql<number>`count(*)::int`, bytes: sql<number>`coalesce(sum(${recordedAnswers.bytes}), 0)::int` })
        .from(recordedAnswers)
        .where(eq(recordedAnswers.state, "kept"))
        .groupBy(recordedAnswers.source)
        .orderBy(asc(recordedAnswers.source));
    },
  };
}

export type RecordedRepo = ReturnType<typeof recordedRepo>;
