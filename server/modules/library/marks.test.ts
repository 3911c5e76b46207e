import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { libraryMessages as m } from "@contracts/library";
import { createTestUser, type TestUser } from "../../testing/users.js";
import type { TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { call, expectRefused, itemIds, libraryTestApp, scalar } from "./test-fixtures.js";

/** Favourites and likes: idempotent, counted with their rows, per member, and shown on the kept pages at once. */
describe.each(testEngines())("favourites and likes on %s", (engine) => {
  let t: TestApp;
  let mixes: number[];
  let singles: number[];
  let alice: TestUser;
  let bob: TestUser;

  const post = (user: TestUser, path: string, body: unknown) => call(t.app, "POST", `/api/user/${path}`, { headers: user.headers, body });
  const rows = (table: "favorites" | "likes", itemId: number) =>
    scalar(t, sql`select count(*)::int as n from ${sql.identifier(table)} where item_id = ${itemId}`);
  const counts = (itemId: number) =>
    t.database.db.execute(sql`select like_count, favorite_count from items where id = ${itemId}`).then((r) => (r as unknown as { rows: { like_count: number; favorite_count: number }[] }).rows[0]);

  beforeAll(async () => {
    t = await libraryTestApp(engine);
    mixes = await itemIds(t, "mix");
    singles = await itemIds(t, "single");
    alice = await createTestUser(t.app);
    bob = await createTestUser(t.app);
  });
  afterAll(() => t?.close());

  it("favouriting twice leaves one row and counts once; unfavouriting twice takes it away once", async () => {
    const id = mixes[0];
    const base = (await counts(id)).favorite_count; // the seed starts items with their source's counts
    const first = await post(alice, "favorite", { id });
    expect(first).toMatchObject({ status: 200, code: 1, msg: m.favoriteOk, data: { is_favorite: true, count: base + 1 } });
    expect((await post(alice, "favorite", { id })).data).toEqual({ is_favorite: true, count: base + 1 });
    expect(await rows("favorites", id)).toBe(1);

    expect((await post(bob, "favorite", { id })).data).toEqual({ is_favorite: true, count: base + 2 });
    const off = await post(alice, "unfavorite", { id });
    expect(off).toMatchObject({ status: 200, code: 1, msg: m.unfavoriteOk, data: { is_favorite: false, count: base + 1 } });
    expect((await post(alice, "unfavorite", { id })).data).toEqual({ is_favorite: false, count: base + 1 });
    expect(await rows("favorites", id)).toBe(1);
    expect((await counts(id)).favorite_count).toBe(base + 1);
  });

  it("likes work the same on singles, apart from favourites", async () => {
    const id = singles[0];
    const base = await counts(id);
    expect(await post(alice, "like", { id })).toMatchObject({ code: 1, msg: m.likeOk, data: { is_liked: true, count: base.like_count + 1 } });
    expect((await post(alice, "like", { id })).data).toEqual({ is_liked: true, count: base.like_count + 1 });
    expect(await counts(id)).toEqual({ like_count: base.like_count + 1, favorite_count: base.favorite_count });
    expect(await post(alice, "unlike", { id })).toMatchObject({ code: 1, msg: m.unlikeOk, data: { is_liked: false, count: base.like_count } });
    expect(await rows("likes", id)).toBe(0);
  });

  it("a member's unfavourite or unlike never touches another member's row", async () => {
    const id = mixes[1];
    const fav = (await post(alice, "favorite", { id })).data.count;
    const like = (await post(alice, "like", { id })).data.count;
    // Bob asks to remove marks on the same item (he has none): Alice's stay, counts unchanged.
    expect((await post(bob, "unfavorite", { id })).data).toEqual({ is_favorite: false, count: fav });
    expect((await post(bob, "unlike", { id })).data).toEqual({ is_liked: false, count: like });
    expect(await rows("favorites", id)).toBe(1);
    const state = await call(t.app, "GET", `/api/user/item-state?ids=${id}`, { headers: alice.headers });
    expect(state.data).toEqual([{ id, is_favorite: true, is_liked: true, downloaded: false, purchased: false, position: null }]);
  });

  it("the suite page's answer shows the new counts right after a like (its kept copy is dropped)", async () => {
    const id = mixes[2];
    const page = () => call(t.app, "GET", `/api/forntend/getmusicinfo?id=${id}`);
    const before = (await page()).data;
    await page(); // kept now
    await post(alice, "like", { id });
    await post(bob, "favorite", { id });
    const after = (await page()).data;
    expect(after.countLikes).toBe(before.countLikes + 1);
    expect(after.countFavorites).toBe(before.countFavorites + 1);
    await post(alice, "unlike", { id });
    expect((await page()).data.countLikes).toBe(before.countLikes);
  });

  it("public answers stay anonymous: no member state and no download link, even with a member's token", async () => {
    const id = mixes[1];
    const res = await t.app.inject({ url: `/api/forntend/getmusicinfo?id=${id}`, headers: alice.headers });
    const text = res.body;
    for (const key of ["is_favorite", "is_liked", "weburl", "web_password", "password"]) expect(text).not.toContain(`"${key}"`);
    const home = await t.app.inject({ url: "/api/forntend/index" });
    expect(home.body).not.toMatch(/"weburl":"[^"]/);
    expect(home.body).not.toContain("pan.");
  });

  it("unknown and hidden items are 数据不存在; ids that are not positive whole numbers are 400 编号不正确", async () => {
    expectRefused(await post(alice, "favorite", { id: 99_999_999 }), 404, m.missing);
    const hidden = mixes[7];
    await t.app.services.writes.setItemsStatus([hidden], "hidden");
    for (const path of ["favorite", "unfavorite", "like", "unlike"]) expectRefused(await post(alice, path, { id: hidden }), 404, m.missing);
    for (const bad of [{ id: "1" }, { id: -1 }, { id: 0 }, { id: 1.5 }, { id: null }, { id: true }, {}, { id: 2 ** 31 }, { id: [1] }]) {
      expectRefused(await post(alice, "like", bad), 400, m.badId);
    }
    const raw = await call(t.app, "POST", "/api/user/favorite", { headers: alice.headers, rawBody: "{not json" });
    expect(raw.status).toBe(400);
    expect(raw.code).toBe(0);
  });

  it("item-state: up to 100 ids, in the order asked; anything else is refused", async () => {
    const ids = [singles[0], mixes[0], 99_999_999];
    const res = await call(t.app, "GET", `/api/user/item-state?ids=${ids.join(",")}`, { headers: bob.headers });
    expect(res.data.map((s: { id: number }) => s.id)).toEqual(ids);
    expect(res.data[1]).toMatchObject({ is_favorite: true, is_liked: false });
    expect(res.data[2]).toEqual({ id: 99_999_999, is_favorite: false, is_liked: false, downloaded: false, purchased: false, position: null });
    for (const bad of ["", "a", "1,,2", "1,-2", "0", "1.5", "99999999999"]) {
      expectRefused(await call(t.app, "GET", `/api/user/item-state?ids=${bad}`, { headers: bob.headers }), 400, m.badIds);
    }
    expectRefused(await call(t.app, "GET", `/api/user/item-state`, { headers: bob.headers }), 400, m.badIds);
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
    expectRefused(await call(t.app, "GET", `/api/user/item-state?ids=${many}`, { headers: bob.headers }), 400, m.tooManyIds);
    // Repeated ids count once.
    const repeated = await call(t.app, "GET", `/api/user/item-state?ids=${mixes[0]},${mixes[0]}`, { headers: bob.headers });
    expect(repeated.data).toHaveLength(1);
  });

  it("lists the member's visible favourites newest first, 10 a page by default, with what the player needs", async () => {
    const carol = await createTestUser(t.app);
    const mine = [...singles.slice(0, 3), ...mixes.slice(0, 7)];
    mine.push(mixes[7]); // hidden: not listed
    for (const id of mine) {
      const res = await post(carol, "favorite", { id });
      if (id !== mixes[7]) expect(res.code).toBe(1);
    }
    const list = (query: string) => call(t.app, "GET", `/api/user/favorites${query}`, { headers: carol.headers });
    const first = await list("");
    expect(first.data.total).toBe(10);
    expect(first.data.list).toHaveLength(10);
    expect(first.data.list[0].id).toBe(mixes[6]); // the newest
    const entry = first.data.list.find((e: { id: number }) => e.id === singles[0]);
    expect(Object.keys(entry).sort()).toEqual(
      ["artist", "cover", "createtime", "downloadable", "id", "is_favorite", "kind", "name", "palyurl", "playtype", "price", "url", "vipdown"].sort(),
    );
    expect(entry).toMatchObject({ is_favorite: true, kind: "single", url: `/sutie/${singles[0]}.html` });
    expect(entry.createtime).toBeGreaterThan(1_700_000_000);
    const paged = await list("?page=2&size=4");
    expect(paged.data.total).toBe(10);
    expect(paged.data.list.map((e: { id: number }) => e.id)).toEqual(first.data.list.slice(4, 8).map((e: { id: number }) => e.id));
    expect((await list("?page=3&size=4")).data.list).toHaveLength(2);
    expect((await list("?page=&size=")).data.list).toHaveLength(10);
    for (const bad of ["?page=0", "?page=abc", "?page=1.5", "?page=10001"]) expectRefused(await list(bad), 400, m.badPage);
    for (const bad of ["?size=0", "?size=51", "?size=-1", "?size=x"]) expectRefused(await list(bad), 400, m.badSize);
    // Another member's list is theirs alone.
    expect((await call(t.app, "GET", "/api/user/favorites", { headers: bob.headers })).data.list.map((e: { id: number }) => e.id)).not.toContain(singles[1]);
  });
});
