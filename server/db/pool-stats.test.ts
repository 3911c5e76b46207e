import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../testing/test-db.js";
import { testEngines } from "../testing/test-db.js";
import { poolStatsOf } from "./pool-stats.js";
import type { DatabaseHandle } from "./types.js";

describe.each(testEngines())("database pool numbers on %s", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database?.close());

  it("counts the calls waiting for a connection while they wait, and none after", async () => {
    const stats = poolStatsOf(database)!;
    expect(stats).toBeDefined();
    const max = stats().max;
    // Every connection held by a transaction that waits in JS, then four more calls.
    const holders = Array.from({ length: max }, () =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await new Promise((r) => setTimeout(r, 150));
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    // Drizzle's queries start when awaited: `then` starts each now.
    const calls = Array.from({ length: 4 }, () => database.db.execute(sql`select 1`).then(() => undefined));
    await new Promise((r) => setTimeout(r, 30));
    const busy = stats();
    expect(busy.waiting).toBe(4);
    expect(busy.idle).toBe(0);
    expect(busy.size).toBe(max);
    await Promise.all([...holders, ...calls]);
    const after = stats();
    expect(after.waiting).toBe(0);
    expect(after.idle).toBe(after.size);
    expect(after.size).toBeGreaterThanOrEqual(1);
  });
});
