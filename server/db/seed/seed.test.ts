import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { likePattern } from "../../modules/search/search-text.js";
import { createTestDatabase, testEngines } from "../../testing/test-db.js";
import { queryRows } from "../sql.js";
import type { DatabaseHandle } from "../types.js";
import { CATEGORIES } from "./categories.js";
import { demoMediaFixture as media } from "./demo-media.fixture.js";
import { seedDemoCatalogue, type SeedResult } from "./index.js";

const now = new Date("2026-06-01T12:00:00Z");
const sizes = { suites: 60, singles: 30, plays: 3000 };

describe.each(testEngines())("demo seed on %s", (engine) => {
  let handle: DatabaseHandle;
  let first: SeedResult;
  let second: SeedResult;
  const one = async <T>(q: ReturnType<typeof sql>) => (await queryRows<T>(handle.db, q))[0];
  const count = async (q: ReturnType<typeof sql>) => (await one<{ n: number }>(q)).n;

  beforeAll(async () => {
    handle = await createTestDatabase(engine);
    first = await seedDemoCatalogue(handle, { media, ...sizes, now });
    second = await seedDemoCatalogue(handle, { media, ...sizes, now });
  });
  afterAll(async () => handle?.close());

  it("adds what was asked the first time and nothing the second time", async () => {
    expect(first.added).toEqual({ mixes: 60, singles: 30, plays: 3000 });
    expect(second.added).toEqual({ mixes: 0, singles: 0, plays: 0 });
    expect(await count(sql`select count(*)::int as n from items`)).toBe(90);
    expect(await count(sql`select count(*)::int as n from play_events`)).toBe(3000);
    expect(await count(sql`select count(*)::int as n from blocks`)).toBe(3);
    expect(await count(sql`select count(*)::int as n from categories`)).toBe(CATEGORIES.length + 3);
  });

  it("grows to a larger size by adding only the missing rows", async () => {
    const grown = await seedDemoCatalogue(handle, { media, ...sizes, suites: 64, now });
    expect(grown.added).toEqual({ mixes: 4, singles: 0, plays: 0 });
    expect(await count(sql`select count(*)::int as n from items where kind = 'mix'`)).toBe(64);
  });

  it("has the special media: a 60-minute timed mix, an HLS item and an mp4 video", async () => {
    const long = await one<{ title: string; starts: number; duration: number }>(
      sql`select title, duration_sec as duration,
                 jsonb_array_length(jsonb_path_query_array(djlist, 'strict $.**.start')) as starts
            from items where duration_sec >= 3600`,
    );
    expect(long.title).toContain("夜曲");
    expect(long.starts).toBe(16); // one per real track of the long mix
    expect(await count(sql`select count(*)::int as n from items where play_url like '%.m3u8'`)).toBeGreaterThan(0);
    const video = await one<{ playtype: string; url: string }>(
      sql`select playtype, play_url as url from items where play_url like '%.mp4' limit 1`,
    );
    expect(video).toEqual({ playtype: "mp4", url: media.video.url });
  });

  it("gives mixes djlist trees: folders, nested folders, leaves, some with start times", async () => {
    const shapes = await one<{ timed: number; nested: number; untimed: number; bad: number }>(
      sql`select
            count(*) filter (where jsonb_path_exists(djlist, 'strict $.**.start'))::int as timed,
            count(*) filter (where jsonb_path_exists(djlist, '$[*].items[*].items[*]'))::int as nested,
            count(*) filter (where not jsonb_path_exists(djlist, 'strict $.**.start'))::int as untimed,
            count(*) filter (where track_count < 1 or djlist is null)::int as bad
          from items where kind = 'mix'`,
    );
    expect(shapes.timed).toBeGreaterThan(5);
    expect(shapes.nested).toBeGreaterThan(0);
    expect(shapes.untimed).toBeGreaterThan(0);
    expect(shapes.bad).toBe(0);
    // Start times stay inside the media they belong to.
    const outside = await count(
      sql`select count(*)::int as n from items, jsonb_path_query(djlist, 'strict $.**.start') s
           where (s #>> '{}')::numeric >= duration_sec`,
    );
    expect(outside).toBe(0);
  });

  it("has VIP, priced and free items with network-drive links, and titles in the sites' conventions", async () => {
    const money = await one<{ vip: number; priced: number; free: number; links: number }>(
      sql`select count(*) filter (where vipdown = '1')::int as vip,
                 count(*) filter (where vipdown = '0' and price > 0)::int as priced,
                 count(*) filter (where vipdown = '0' and price = 0)::int as free,
                 count(*) filter (where weburl like 'https://%' and web_password ~ '^[a-z0-9]{4}$')::int as links
            from items`,
    );
    expect(Math.min(money.vip, money.priced, money.free)).toBeGreaterThan(0);
    expect(money.links).toBeGreaterThan(50);
    expect(await count(sql`select count(*)::int as n from items where kind = 'single' and title !~ '^(【[^】]+】)?.+ - .+\\(.+ Rmx \\d{4}.*\\)$'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from items where kind = 'mix' and title !~ '-.*串烧$'`)).toBe(0);
  });

  it("spreads items over all four sources, with both kinds on each chart site", async () => {
    const rows = await queryRows<{ site: string; kinds: number }>(
      handle.db,
      sql`select source_site as site, count(distinct kind)::int as kinds from items group by 1 order by 1`,
    );
    expect(rows.map((r) => r.site)).toEqual(["172minx", "djuu", "local", "vvvdj"]);
    expect(rows.filter((r) => r.site !== "local").every((r) => r.kinds === 2)).toBe(true);
  });

  it("puts categories, logos and the carousel/partner blocks in place", async () => {
    const names = await queryRows<{ name: string }>(handle.db, sql`select name from categories where parent_id is not null`);
    expect(names.map((n) => n.name).sort()).toEqual(CATEGORIES.map((c) => c.name).sort());
    expect(await count(sql`select count(*)::int as n from categories where model_id = 2 and parent_id is not null`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*)::int as n from source_sites where logo is null`)).toBe(0);
    const focus = await queryRows<{ image: string }>(
      handle.db,
      sql`select bi.image from block_items bi join blocks b on b.id = bi.block_id
           where b.position = 'indexfocus' and b.status order by bi.sort`,
    );
    expect(focus.map((f) => f.image)).toEqual(media.banners);
    const logos = await queryRows<{ image: string }>(
      handle.db,
      sql`select bi.image from block_items bi join blocks b on b.id = bi.block_id where b.position = 'indexweb' order by bi.sort`,
    );
    expect(logos.map((l) => l.image)).toEqual(["djuu", "172minx", "vvvdj", "local"].map((c) => media.logos[c]));
    expect(await count(sql`select count(*)::int as n from blocks where not status`)).toBe(1);
  });

  it("spreads play events over the last 100 days, recent-heavy and skewed toward a few items", async () => {
    const span = await one<{ future: number; old: number; lastWeek: number; firstWeek: number }>(
      sql`select count(*) filter (where played_at > ${now})::int as future,
                 count(*) filter (where played_at < ${now}::timestamptz - interval '100 days')::int as old,
                 count(*) filter (where played_at >= ${now}::timestamptz - interval '7 days')::int as "lastWeek",
                 count(*) filter (where played_at < ${now}::timestamptz - interval '93 days')::int as "firstWeek"
            from play_events`,
    );
    expect(span.future + span.old).toBe(0);
    expect(span.lastWeek).toBeGreaterThan(span.firstWeek * 2);
    const top = await queryRows<{ plays: number }>(
      handle.db,
      sql`select count(*)::int as plays from play_events group by item_id order by 1 desc`,
    );
    expect(top[0].plays).toBeGreaterThan(top[Math.floor(top.length / 2)].plays * 5);
    // Trending items lead the short windows, evergreen hits the long ones: the charts differ.
    const leaders = await queryRows<{ days: number; ids: number[] }>(
      handle.db,
      sql`select w.days, (select array_agg(item_id order by n desc, item_id) from (
              select item_id, count(*) as n from play_events
               where played_at >= ${now}::timestamptz - make_interval(days => w.days)
               group by item_id order by n desc, item_id limit 3) t) as ids
            from (values (1), (90)) w(days) order by w.days`,
    );
    expect(leaders[0].ids[0]).not.toBe(leaders[1].ids[0]);
    const empty = await count(
      sql`select count(*)::int as n from (select s.code, k.kind from source_sites s, (values ('mix'), ('single')) k(kind)
            where s.code <> 'local') want
          where not exists (select 1 from play_events p join items i on i.id = p.item_id
                             where i.source_site = want.code and i.kind = want.kind
                               and p.played_at >= ${now}::timestamptz - interval '7 days')`,
    );
    expect(empty).toBe(0);
  });

  it("is findable: 夜曲 and zjl find the 周杰伦 items", async () => {
    const titles = async (kw: string) =>
      (await queryRows<{ title: string }>(handle.db, sql`select title from items where search_text like ${likePattern(kw)}`)).map((r) => r.title);
    expect(await titles("夜曲")).toEqual(
      expect.arrayContaining(["周杰伦 - 夜曲(DJ阿远 Electro Rmx 2024)", "福州DJ阿远-全中文国语周杰伦夜曲经典慢摇串烧"]),
    );
    expect((await titles("zjl")).length).toBeGreaterThan(1);
  });
});

describe.each(testEngines())("concurrent demo seeds on %s", (engine) => {
  it("two seeds at once produce exactly one catalogue", async () => {
    const handle = await createTestDatabase(engine);
    try {
      const small = { media, suites: 12, singles: 6, plays: 400, now };
      const results = await Promise.all([seedDemoCatalogue(handle, small), seedDemoCatalogue(handle, small)]);
      const added = results.reduce((s, r) => s + r.added.mixes + r.added.singles + r.added.plays, 0);
      expect(added).toBe(12 + 6 + 400);
      const [row] = await queryRows<{ items: number; blocks: number; plays: number }>(
        handle.db,
        sql`select (select count(*)::int from items) as items, (select count(*)::int from blocks) as blocks,
                   (select count(*)::int from play_events) as plays`,
      );
      expect(row).toEqual({ items: 18, blocks: 3, plays: 400 });
    } finally {
      await handle.close();
    }
  });
});

describe.each(testEngines())("demo seed on an empty catalogue on %s", (engine) => {
  it("records no plays while there is nothing to play, and adds them once items exist", async () => {
    const handle = await createTestDatabase(engine);
    try {
      const none = await seedDemoCatalogue(handle, { media, suites: 0, singles: 0, plays: 50, now });
      expect(none.added).toEqual({ mixes: 0, singles: 0, plays: 0 });
      const some = await seedDemoCatalogue(handle, { media, suites: 3, singles: 0, plays: 50, now });
      expect(some.added).toEqual({ mixes: 3, singles: 0, plays: 50 });
    } finally {
      await handle.close();
    }
  });
});
