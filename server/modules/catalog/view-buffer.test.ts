/** The view buffer keeps a failed batch and writes it with the next flush (the chain recovers). */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/sql.js";
import type { DatabaseHandle } from "../../db/types.js";
import { inProcessBus } from "../../events/bus.js";
import { createTestDatabase, testEngines } from "../../testing/test-db.js";
import { catalogueWriteService } from "../catalogue-write/service.js";
import { viewBuffer } from "./view-buffer.js";

describe.each(testEngines())("view buffer on %s", (engine) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("a failed write is kept, its views' waiters get the error, and the next flush writes it", async () => {
    const writes = catalogueWriteService(database.db, inProcessBus());
    const itemId = await writes.createItem({ kind: "mix", title: "缓冲测试串烧", playUrl: "/media/x.m4a", sourceSite: "local" });
    const views = viewBuffer(database.db, writes);
    await database.db.execute(sql`alter table item_view_deltas rename to item_view_deltas_away`);
    try {
      const committed = views.add({ itemId, visitorId: "v1", day: "2026-11-22" });
      await expect(views.flush()).rejects.toThrow();
      await expect(committed).rejects.toThrow();
    } finally {
      await database.db.execute(sql`alter table item_view_deltas_away rename to item_view_deltas`);
    }
    expect(views.pendingFor(itemId)).toBe(1);
    await views.flush();
    const rows = await queryRows<{ views: number }>(database.db, sql`select views from item_view_deltas where item_id = ${itemId}`);
    expect(rows).toEqual([{ views: 1 }]);
    expect(views.pendingFor(itemId)).toBe(0);
  });

  it("group commit: views of a few ms are written in one statement, each answered once it is committed", async () => {
    const writes = catalogueWriteService(database.db, inProcessBus());
    const itemId = await writes.createItem({ kind: "mix", title: "成组提交串烧", playUrl: "/media/y.m4a", sourceSite: "local" });
    let statements = 0;
    // The real database, its statements counted.
    const execute: typeof database.db.execute = (query) => (statements++, database.db.execute(query));
    const counted = viewBuffer(Object.create(database.db, { execute: { value: execute } }) as typeof database.db, writes);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => counted.add({ itemId, visitorId: `g${i % 10}`, day: "2026-11-22" })));
    expect(answers.filter(Boolean)).toHaveLength(10);
    expect(statements).toBe(1);
    const rows = await queryRows<{ views: number }>(database.db, sql`select views from item_view_deltas where item_id = ${itemId}`);
    expect(rows).toEqual([{ views: 10 }]);
    expect(counted.pendingFor(itemId)).toBe(0);
  });
});
