import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEngines } from "../testing/test-db.js";
import { bulkInsert } from "./bulk.js";
import { categories, items, playEvents } from "./schema/index.js";
import { queryRows } from "./sql.js";
import type { DatabaseHandle } from "./types.js";

describe.each(testEngines())("bulkInsert on %s", (engine) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(engine);
  });
  afterAll(async () => handle?.close());

  it("round-trips awkward values: quotes, backslashes, Chinese, jsonb trees, nulls, dates", async () => {
    const when = new Date("2026-03-04T05:06:07.089Z");
    const [row] = await bulkInsert<typeof items, { id: number }>(
      handle.db,
      items,
      [
        {
          kind: "mix",
          title: `周杰伦 - "夜曲" \\ it's {a,b} ${"\u{1F3B5}"}`,
          playUrl: "/m.mp3",
          sourceSite: "local",
          djlist: [{ label: "CD1", items: [{ label: "1. 夜曲", start: 0 }] }],
          publishedAt: when,
          bpm: null,
        },
      ],
      { returning: sql`id` },
    );
    const [back] = await handle.db.select().from(items).where(sql`${items.id} = ${row.id}`);
    expect(back.title).toBe(`周杰伦 - "夜曲" \\ it's {a,b} ${"\u{1F3B5}"}`);
    expect(back.djlist).toEqual([{ label: "CD1", items: [{ label: "1. 夜曲", start: 0 }] }]);
    expect(back.publishedAt.toISOString()).toBe(when.toISOString());
    expect(back.bpm).toBeNull();
    expect(back.artist).toBe("未知歌手"); // keys not given keep their defaults
  });

  it("inserts more rows than 65535 bind parameters would allow, in one statement", async () => {
    const [item] = await handle.db
      .insert(items)
      .values({ kind: "single", title: "x", playUrl: "/x.mp3", sourceSite: "djuu" })
      .returning();
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      itemId: item.id,
      visitorId: `v${i % 97}`,
      playbackId: `p${i}`,
      playedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      secondsListened: 30 + (i % 60),
    }));
    await bulkInsert(handle.db, playEvents, rows); // 5 columns x 20000 rows = 100000 values
    const [n] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from play_events`);
    expect(n.n).toBe(20_000);
    // on conflict do nothing: the same playbacks again add nothing
    await bulkInsert(handle.db, playEvents, rows.slice(0, 100), { onConflictDoNothing: true });
    const [m] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from play_events`);
    expect(m.n).toBe(20_000);
  });

  it("rejects keys that are not columns, and does nothing for no rows", async () => {
    await expect(
      bulkInsert(handle.db, categories, [{ name: "a", diyname: "a", nope: 1 } as never]),
    ).rejects.toThrow(/no column for key "nope"/);
    expect(await bulkInsert(handle.db, categories, [])).toEqual([]);
  });
});
