import { inArray, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { chartEntries, collectJobs } from "../../db/schema/index.js";
import { OPEN_STATES } from "../collect/repo.js";

/** The background work as the database holds it (every instance's, not only this one's). */
export function metricsRepo(db: AppDatabase) {
  return {
    /** Collect jobs by state (all time). */
    async jobStates(): Promise<{ state: string; jobs: number }[]> {
      return db
        .select({ state: collectJobs.state, jobs: sql<number>`count(*)`.mapWith(Number) })
        .from(collectJobs)
        .groupBy(collectJobs.state);
    },

    /** The queued and running jobs (at most one per source) with their cursor and counts. */
    async openJobs() {
      return db
        .select({
          source: collectJobs.source,
          state: collectJobs.state,
          units: sql<number>`jsonb_array_length(${collectJobs.plan})`.mapWith(Number),
          unitIndex: collectJobs.unitIndex,
          pagesDone: collectJobs.pagesDone,
          itemsFound: collectJobs.itemsFound,
          errors: collectJobs.errors,
        })
        .from(collectJobs)
        .where(inArray(collectJobs.state, [...OPEN_STATES]));
    },

    /** When the charts were last rebuilt (Unix seconds), by any instance; null before the first. */
    async lastChartRebuild(): Promise<number | null> {
      const [row] = await db
        .select({ at: sql<number | null>`extract(epoch from max(${chartEntries.computedAt}))::float8` })
        .from(chartEntries);
      return row?.at === null || row?.at === undefined ? null : Number(row.at);
    },
  };
}
