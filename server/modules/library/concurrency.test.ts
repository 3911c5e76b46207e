import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/sql.js";
import type { TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser, type TestUser } from "../../testing/users.js";
import { itemIds, libraryTestApp } from "./test-fixtures.js";

const MEMBERS = 100;
const CALLS = 1_000;
const ACTIONS = ["favorite", "unfavorite", "like", "unlike"] as const;

/** A small deterministic generator: the same storm on every run and engine. */
function prng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

interface Counts {
  id: number;
  like_count: number;
  favorite_count: number;
  likes: number;
  favorites: number;
}

/** 100 members clicking 1,000 times at once: every count still equals the rows behind it. */
describe.each(testEngines())("counts under concurrency on %s", (engine) => {
  let t: TestApp;
  let targets: number[];
  let members: TestUser[];

  const snapshot = (ids: number[]) =>
    queryRows<Counts>(
      t.database.db,
      sql`select i.id, i.like_count, i.favorite_count,
                 (select count(*)::int from likes l where l.item_id = i.id) as likes,
                 (select count(*)::int from favorites f where f.item_id = i.id) as favorites
            from items i where i.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) order by i.id`,
    );

  beforeAll(async () => {
    t = await libraryTestApp(engine);
    // Three items everyone fights over (a mix, a single and another mix).
    const [mixes, singles] = [await itemIds(t, "mix"), await itemIds(t, "single")];
    targets = [mixes[0], singles[0], mixes[1]];
    members = [];
    for (let i = 0; i < MEMBERS; i++) members.push(await createTestUser(t.app));
  }, 120_000);
  afterAll(() => t?.close());

  it("1,000 simultaneous like/unlike/favourite/unfavourite calls from 100 members leave counts equal to rows", async () => {
    const before = await snapshot(targets);
    const next = prng(20261122);
    const calls = Array.from({ length: CALLS }, () => ({
      member: members[next(MEMBERS)],
      action: ACTIONS[next(ACTIONS.length)],
      id: targets[next(targets.length)],
    }));
    const answers = await Promise.all(
      calls.map(({ member, action, id }) =>
        t.app.inject({ method: "POST", url: `/api/user/${action}`, headers: member.headers, payload: { id } }),
      ),
    );
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200)).toEqual([]);

    const after = await snapshot(targets);
    for (const [i, row] of after.entries()) {
      // The seed starts items with their source's counts and no rows: what moved is what the rows say.
      expect(row.like_count - before[i].like_count, `likes of ${row.id}`).toBe(row.likes);
      expect(row.favorite_count - before[i].favorite_count, `favourites of ${row.id}`).toBe(row.favorites);
    }
    // The storm did something: both kinds of rows exist, and neither side won everything.
    const total = after.reduce((n, r) => n + r.likes + r.favorites, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(2 * MEMBERS * targets.length);

  }, 120_000);
});
