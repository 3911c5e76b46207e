import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { libraryMessages as m } from "@contracts/library";
import type { TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { createTestUser, type TestUser } from "../../testing/users.js";
import { call, expectRefused, itemIds, libraryTestApp } from "./test-fixtures.js";

/** The player's resume points and queue, kept per member on the server. */
describe.each(testEngines())("player state on %s", (engine) => {
  let t: TestApp;
  let mixes: number[];
  let singles: number[];

  const state = (user: TestUser) => call(t.app, "GET", "/api/user/player", { headers: user.headers });
  const putPositions = (user: TestUser, body: unknown) => call(t.app, "PUT", "/api/user/player/positions", { headers: user.headers, body });
  const putQueue = (user: TestUser, body: unknown) => call(t.app, "PUT", "/api/user/player/queue", { headers: user.headers, body });

  beforeAll(async () => {
    t = await libraryTestApp(engine);
    mixes = await itemIds(t, "mix");
    singles = await itemIds(t, "single");
  });
  afterAll(() => t?.close());

  it("a new member has no resume points and an empty queue", async () => {
    const member = await createTestUser(t.app);
    expect((await state(member)).data).toEqual({ positions: [], queue: { items: [], index: -1, updatedAt: null } });
  });

  it("resume points: the newest per item wins, whichever device sends it, and show in item-state", async () => {
    const member = await createTestUser(t.app);
    const now = Date.now();
    expect((await putPositions(member, { positions: [{ id: mixes[0], position: 125.7, duration: 3600.2, updatedAt: now - 5000 }] })).code).toBe(1);
    // An older report (another device that was offline) does not win.
    await putPositions(member, { positions: [{ id: mixes[0], position: 30, duration: 3600, updatedAt: now - 60_000 }] });
    // A newer one does; within one batch the newest of the same id counts.
    await putPositions(member, {
      positions: [
        { id: mixes[1], position: 50, duration: null, updatedAt: now - 2000 },
        { id: mixes[1], position: 70, duration: null, updatedAt: now - 1000 },
        { id: 99_999_999, position: 10, duration: 100, updatedAt: now },
      ],
    });
    const { positions } = (await state(member)).data;
    expect(positions).toEqual([
      { id: mixes[1], position: 70, duration: null, updatedAt: now - 1000 },
      { id: mixes[0], position: 125, duration: 3600, updatedAt: now - 5000 },
    ]);
    await putPositions(member, { positions: [{ id: mixes[0], position: 0, duration: 3600, updatedAt: now }] });
    const states = await call(t.app, "GET", `/api/user/item-state?ids=${mixes[0]},${mixes[1]}`, { headers: member.headers });
    expect(states.data.map((s: { position: number | null }) => s.position)).toEqual([0, 70]);
    // Another member sees none of it.
    expect((await state(await createTestUser(t.app))).data.positions).toEqual([]);
  });

  it("a point dated in the future is kept at the server's now, so later points still win", async () => {
    const member = await createTestUser(t.app);
    await putPositions(member, { positions: [{ id: singles[0], position: 40, duration: 200, updatedAt: Date.now() + 86_400_000 }] });
    const [stored] = (await state(member)).data.positions;
    expect(stored.updatedAt).toBeLessThanOrEqual(Date.now());
    await new Promise((r) => setTimeout(r, 5));
    await putPositions(member, { positions: [{ id: singles[0], position: 90, duration: 200, updatedAt: Date.now() }] });
    expect((await state(member)).data.positions[0].position).toBe(90);
  });

  it("refuses malformed positions", async () => {
    const member = await createTestUser(t.app);
    const ok = { id: mixes[0], position: 10, duration: 100, updatedAt: Date.now() };
    for (const bad of [
      { ...ok, position: -1 },
      { ...ok, position: "10" },
      { ...ok, updatedAt: 1.5 },
      { ...ok, updatedAt: -1 },
      { ...ok, duration: -2 },
    ]) {
      expectRefused(await putPositions(member, { positions: [bad] }), 400, m.badPositions);
    }
    expectRefused(await putPositions(member, { positions: [{ ...ok, id: "1" }] }), 400, m.badId);
    expectRefused(await putPositions(member, { positions: "x" }), 400, m.badPositions);
    expectRefused(await putPositions(member, { positions: Array(101).fill(ok) }), 400, m.badPositions);
  });

  it("the queue: stored in order with the current entry, answered with what the player needs; gone items drop out", async () => {
    const member = await createTestUser(t.app);
    const ids = [mixes[2], singles[1], mixes[3], mixes[4]];
    expect((await putQueue(member, { ids, index: 2 })).code).toBe(1);
    let { queue } = (await state(member)).data;
    expect(queue.items.map((q: { id: number }) => q.id)).toEqual(ids);
    expect(queue.index).toBe(2);
    expect(queue.updatedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(Object.keys(queue.items[0]).sort()).toEqual(["artist", "cover", "id", "name", "palyurl", "playtype", "url"]);
    expect(queue.items[1]).toMatchObject({ id: singles[1], url: `/sutie/${singles[1]}.html` });

    // The entry before the current one is hidden: the current one stays current.
    await t.app.services.writes.setItemsStatus([singles[1]], "hidden");
    ({ queue } = (await state(member)).data);
    expect(queue.items.map((q: { id: number }) => q.id)).toEqual([mixes[2], mixes[3], mixes[4]]);
    expect(queue.index).toBe(1);
    // The current one goes: the one before it becomes current.
    await t.app.services.writes.setItemsStatus([mixes[3]], "hidden");
    ({ queue } = (await state(member)).data);
    expect(queue.items.map((q: { id: number }) => q.id)).toEqual([mixes[2], mixes[4]]);
    expect(queue.index).toBe(0);

    // A new queue replaces the old one; an empty one empties it.
    await putQueue(member, { ids: [mixes[5]], index: 0 });
    expect((await state(member)).data.queue.items.map((q: { id: number }) => q.id)).toEqual([mixes[5]]);
    await putQueue(member, { ids: [], index: -1 });
    expect((await state(member)).data.queue).toMatchObject({ items: [], index: -1 });
  });

  it("refuses a malformed queue and one longer than 200", async () => {
    const member = await createTestUser(t.app);
    for (const bad of [
      { ids: [1, 2], index: 2 },
      { ids: [1], index: -2 },
      { ids: [1], index: 0.5 },
      { ids: "1,2", index: 0 },
      { ids: [1] },
    ]) {
      expectRefused(await putQueue(member, bad), 400, m.badQueue);
    }
    expectRefused(await putQueue(member, { ids: ["1"], index: 0 }), 400, m.badId);
    expectRefused(await putQueue(member, { ids: Array.from({ length: 201 }, (_, i) => i + 1), index: 0 }), 400, m.queueTooLong);
    expect((await putQueue(member, { ids: Array.from({ length: 200 }, (_, i) => i + 1), index: 199 })).code).toBe(1);
  });
});
