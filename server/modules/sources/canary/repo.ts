import { eq } from "drizzle-orm";
import { sourceCanaries } from "../../../db/schema/index.js";
import type { AppDatabase } from "../../../db/types.js";
import type { CanaryCheck } from "./checks.js";
import type { CanaryState } from "./classify.js";

export interface CanaryRow {
  source: string;
  state: CanaryState;
  at: Date;
  since: Date;
  lastOkAt: Date | null;
  failingStep: string | null;
  checks: CanaryCheck[];
}

/** The last canary result per source (`source_canaries`). */
export function canaryRepo(db: AppDatabase) {
  return {
    async list(): Promise<CanaryRow[]> {
      return (await db.select().from(sourceCanaries)) as CanaryRow[];
    },
    async get(source: string): Promise<CanaryRow | undefined> {
      const [row] = await db.select().from(sourceCanaries).where(eq(sourceCanaries.source, source));
      return row as CanaryRow | undefined;
    },
    async save(row: CanaryRow, tx: AppDatabase = db): Promise<void> {
      const { source, ...rest } = row;
      await tx.insert(sourceCanaries).values(row).onConflictDoUpdate({ target: sourceCanaries.source, set: rest });
    },
  };
}

export type CanaryRepo = ReturnType<typeof canaryRepo>;
