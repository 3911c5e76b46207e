import { describe, expect, it } from "vitest";
import type { AppDatabase } from "../../db/open.js";
import { dailyCounterBuffer } from "./counter-buffer.js";

/** A database whose upserts fail while `down` is set, and that records the rows it took. */
function fakeDb() {
  const state = { down: false, writes: [] as { day: string; name: string; count: number }[][] };
  const db = {
    insert: () => ({
      values: (rows: { day: string; name: string; count: number }[]) => ({
        onConflictDoUpdate: async () => {
          if (state.down) throw new Error("database down");
          state.writes.push(rows.map((r) => ({ ...r })));
        },
      }),
    }),
  } as unknown as AppDatabase;
  return { db, state };
}

describe("the daily counter buffer", () => {
  it("sums counts per China day in memory and writes them as one batch", async () => {
    const { db, state } = fakeDb();
    let now = Date.parse("2026-06-14T15:59:59Z"); // 23:59:59 in China
    const counters = dailyCounterBuffer(db, () => new Date(now));
    counters.add("search");
    counters.add("search", 2);
    now += 1000; // midnight in China: a new day
    counters.add("search");
    expect(state.writes).toEqual([]);
    await counters.flush();
    expect(state.writes).toEqual([
      [
        { day: "2026-06-14", name: "search", count: 3 },
        { day: "2026-06-15", name: "search", count: 1 },
      ],
    ]);
    await counters.flush(); // nothing waiting: no write
    expect(state.writes).toHaveLength(1);
  });

  it("keeps a failed batch and adds it to the next one", async () => {
    const { db, state } = fakeDb();
    const counters = dailyCounterBuffer(db, () => new Date("2026-06-15T02:00:00Z"));
    counters.add("search", 4);
    state.down = true;
    await expect(counters.flush()).rejects.toThrow("database down");
    counters.add("search");
    state.down = false;
    await counters.flush();
    expect(state.writes).toEqual([[{ day: "2026-06-15", name: "search", count: 5 }]]);
  });
});
