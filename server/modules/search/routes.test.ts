import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { items } from "../../db/schema/index.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { localProvider } from "./local-provider.js";
import { SEARCH_SAMPLE_MODULUS, searchRepo } from "./repo.js";
import { likePattern } from "./search-text.js";

type Kind = "mix" | "single";
interface Fixture {
  title: string;
  artist?: string;
  kind?: Kind;
  playtype?: "mp3" | "mp4";
  site?: string;
  views?: number;
  status?: "normal" | "hidden";
}

const LETTERS = "ABCDEFGHIJKL";
const FIXTURES: Fixture[] = [
  { title: "周杰伦 - 夜曲(DJ阿远 Electro Rmx 2024)", artist: "周杰伦", kind: "single", site: "djuu", views: 10 },
  { title: "福州DJ阿远-全中文国语周杰伦夜曲经典慢摇串烧", artist: "DJ阿远", site: "local", views: 500 },
  { title: "夜曲", artist: "周杰伦", kind: "single", site: "vvvdj", views: 1 },
  { title: "夜曲一生", artist: "DJ小鱼儿", kind: "single", site: "172minx", views: 2 },
  { title: "长沙DJ沈念-重庆女孩绿色串烧", artist: "DJ沈念", site: "vvvdj", views: 50 },
  { title: "Alan Walker - Faded (Remix)", artist: "Alan Walker", kind: "single", site: "djuu", views: 70 },
  { title: "周杰伦 - 晴天(DJ版)", artist: "周杰伦", kind: "single", site: "djuu", views: 30, playtype: "mp4" },
  { title: "隐藏的夜曲", artist: "周杰伦", kind: "single", site: "djuu", views: 999, status: "hidden" },
  { title: "<script>alert(1)</script> 夜店", artist: "DJ'; drop table items; --", site: "djuu", views: 3 },
  // Paging: 12 more 夜 hits with distinct popularity.
  ...Array.from({ length: 12 }, (_, i): Fixture => ({ title: `夜店嗨曲第${LETTERS[i]}辑串烧`, artist: "DJ阿杰", views: 100 + i })),
];

describe.each(testEngines())("GET /api/forntend/indexsearch on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  const ids = new Map<string, number>();

  const search = (params: Record<string, string | number>) =>
    app.inject({ url: "/api/forntend/indexsearch", query: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  const names = async (params: Record<string, string | number>) => {
    const res = await search(params);
    expect(res.statusCode).toBe(200);
    return (res.json().data.list as { name: string }[]).map((i) => i.name);
  };

  beforeAll(async () => {
    testApp = await createTestApp(engine);
    app = testApp.app;
    const { writes } = app.services;
    const [cat] = await writes.createCategories([{ name: "中文串烧", diyname: "zhongwen" }]);
    await writes.createItems(
      FIXTURES.map((f) => ({
        kind: f.kind ?? "mix",
        title: f.title,
        artist: f.artist ?? "未知歌手",
        playUrl: `/media/demo/${encodeURIComponent(f.title)}.m4a`,
        playtype: f.playtype ?? "mp3",
        sourceSite: f.site ?? "local",
        categoryId: cat.id,
        status: f.status ?? "normal",
        viewCount: f.views ?? 0,
      })),
    );
    const rows = await testApp.database.db.select({ id: items.id, title: items.title }).from(items);
    for (const r of rows) ids.set(r.title, r.id);
  });

  afterAll(() => testApp?.close());

  it("answers the spec's Song fields, with defaults and the detail page url", async () => {
    const res = await search({ keyword: "夜曲一生" });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 1, data: { total: 1, page: 1, pageSize: 5, capped: false, errors: [] } });
    const id = ids.get("夜曲一生");
    expect(body.data.list[0]).toMatchObject({
      id,
      name: "夜曲一生",
      artist: "DJ小鱼儿",
      cover: "/img/noimage.png",
      playtype: "mp3",
      kind: "single",
      channel: "172minx",
      website: "172Mix",
      category: "中文串烧",
      cidurl: "/sort/zhongwen",
      url: `/sutie/${id}.html`,
      source: "local",
    });
    expect(body.data.list[0].palyurl).toContain("/media/demo/");
  });

  it.each([
    ["1-char Chinese", "晴", []], // 晴天 is mp4 only
    ["2-char Chinese", "重庆", ["长沙DJ沈念-重庆女孩绿色串烧"]],
    ["4-char Chinese", "重庆女孩", ["长沙DJ沈念-重庆女孩绿色串烧"]],
    ["artist", "沈念", ["长沙DJ沈念-重庆女孩绿色串烧"]],
    ["full pinyin", "chongqingnvhai", ["长沙DJ沈念-重庆女孩绿色串烧"]],
    ["initials", "cqnh", ["长沙DJ沈念-重庆女孩绿色串烧"]],
    ["Latin, any case", "FADED", ["Alan Walker - Faded (Remix)"]],
    ["full-width Latin", "ｆａｄｅｄ", ["Alan Walker - Faded (Remix)"]],
  ])("finds by %s (%s)", async (_kind, keyword, expected) => {
    expect(await names({ keyword })).toEqual(expected);
  });

  it("finds 周杰伦 by zjl, zhoujielun and 杰伦, and never hidden items", async () => {
    for (const keyword of ["zjl", "zhoujielun", "杰伦", "周杰伦"]) {
      const found = await names({ keyword, pageSize: 50 });
      expect(found).toContain("周杰伦 - 夜曲(DJ阿远 Electro Rmx 2024)");
      expect(found).toContain("夜曲");
      expect(found).not.toContain("隐藏的夜曲");
    }
  });

  it("ranks exact title, then title/song prefix, then literal substring, then pinyin-only; popularity breaks ties", async () => {
    expect(await names({ keyword: "夜曲", pageSize: 10 })).toEqual([
      "夜曲", // exact title
      // Title prefix or song part of 歌手 - 歌名, similar length: the more popular first.
      "周杰伦 - 夜曲(DJ阿远 Electro Rmx 2024)",
      "夜曲一生",
      "福州DJ阿远-全中文国语周杰伦夜曲经典慢摇串烧", // substring
    ]);
    // Exact artist first for an artist name; then by text length (tighter match), popularity, id.
    const byArtist = await names({ keyword: "alan walker" });
    expect(byArtist).toEqual(["Alan Walker - Faded (Remix)"]);
  });

  it("filters by type, channel and kind", async () => {
    expect(await names({ keyword: "晴天", type: "mp4" })).toEqual(["周杰伦 - 晴天(DJ版)"]);
    expect(await names({ keyword: "晴天" })).toEqual([]);
    expect(await names({ keyword: "夜曲", channelid: "vvvdj" })).toEqual(["夜曲"]);
    expect(await names({ keyword: "夜曲", channelid: "nosuchsite" })).toEqual([]);
    expect(await names({ keyword: "夜曲", filter: "mix" })).toEqual(["福州DJ阿远-全中文国语周杰伦夜曲经典慢摇串烧"]);
  });

  it("pages 5 at a time with the total, by popularity inside a tier, and past the end answers an empty page", async () => {
    const first = (await search({ keyword: "夜店嗨曲" })).json().data;
    expect(first).toMatchObject({ total: 12, page: 1, pageSize: 5 });
    expect(first.list.map((i: { name: string }) => i.name)).toEqual([..."LKJIH"].map((c) => `夜店嗨曲第${c}辑串烧`));
    const third = (await search({ keyword: "夜店嗨曲", page: 3 })).json().data;
    expect(third.list).toHaveLength(2);
    const limit = (await search({ keyword: "夜店嗨曲", limit: 3 })).json().data;
    expect(limit).toMatchObject({ pageSize: 3 });
    expect(limit.list).toHaveLength(3);
    const past = (await search({ keyword: "夜店嗨曲", page: 9 })).json().data;
    expect(past).toMatchObject({ list: [], total: 12, page: 9 });
    // All 1-char hits: 12 + the <script> one + 夜曲 x4, and the hidden one is not counted.
    expect((await search({ keyword: "夜", pageSize: 50 })).json().data.total).toBe(17);
  });

  it("stops counting at the cap: total is then a lower bound and pages past it are empty", async () => {
    const capped = localProvider(testApp.database.db, { cap: 3 });
    const q = { keyword: "夜", page: 1, pageSize: 2, type: "mp3" as const };
    expect(await capped.search(q, new AbortController().signal)).toMatchObject({ total: 3, capped: true });
    expect((await capped.search({ ...q, page: 2 }, new AbortController().signal)).list).toHaveLength(1);
    expect(await capped.search({ ...q, page: 3 }, new AbortController().signal)).toMatchObject({ list: [], total: 3, capped: true });
    const few = await capped.search({ ...q, keyword: "重庆" }, new AbortController().signal);
    expect(few).toMatchObject({ total: 1, capped: false });
  });

  it("a keyword with more hits than the cap among every 8th item is answered from those alone", async () => {
    const repo = searchRepo(testApp.database.db);
    const all = [...ids].filter(([title]) => title.startsWith("夜店嗨曲")).map(([, id]) => id);
    const sampled = all.filter((id) => id % SEARCH_SAMPLE_MODULUS === 0);
    expect(sampled.length).toBeGreaterThan(0);
    const q = { pattern: likePattern("夜店嗨曲")!, keyword: "夜店嗨曲", playtype: "mp3" as const, limit: 50, offset: 0 };
    // The sample alone passes the cap: its hits are the ones ranked, and the total says "more".
    const fromSample = await repo.search({ ...q, cap: sampled.length - 1 });
    expect(fromSample.total).toBe(sampled.length);
    expect(fromSample.rows.map((r) => r.id).sort()).toEqual([...sampled].sort());
    // It does not: every hit is read, up to the cap.
    expect((await repo.search({ ...q, cap: sampled.length })).total).toBe(sampled.length + 1);
    expect((await repo.search({ ...q, cap: 100 })).total).toBe(all.length);
  });

  it.each([
    [{}, "请输入搜索关键词"],
    [{ keyword: "" }, "请输入搜索关键词"],
    [{ keyword: "   " }, "请输入搜索关键词"],
    [{ keyword: "\u3000" }, "请输入搜索关键词"], // ideographic space folds to a blank
    [{ keyword: "夜".repeat(51) }, "搜索关键词不能超过50个字符"],
    [{ keyword: "夜\u0000" }, "搜索关键词包含无效字符"],
    [{ keyword: "夜", page: 0 }, "页码必须是1到1000之间的整数"],
    [{ keyword: "夜", page: -1 }, "页码必须是1到1000之间的整数"],
    [{ keyword: "夜", page: "abc" }, "页码必须是1到1000之间的整数"],
    [{ keyword: "夜", page: "1.5" }, "页码必须是1到1000之间的整数"],
    [{ keyword: "夜", page: 1001 }, "页码必须是1到1000之间的整数"],
    [{ keyword: "夜", page: "99999999999999999999" }, "页码必须是1到1000之间的整数"],
    [{ keyword: "夜", pageSize: 51 }, "每页条数必须是1到50之间的整数"],
    [{ keyword: "夜", limit: 0 }, "每页条数必须是1到50之间的整数"],
    [{ keyword: "夜", type: "flac" }, "类型只能是mp3或mp4"],
    [{ keyword: "夜", channelid: "../etc" }, "搜索来源不正确"],
    [{ keyword: "夜", filter: "x" }, "筛选条件不正确"],
  ])("answers 400 for %j: %s", async (params, msg) => {
    const res = await search(params as Record<string, string>);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 0, msg });
  });

  it("searches SQL and HTML as plain text, never a 500", async () => {
    for (const keyword of ["' or 1=1 --", "'; drop table items; --", "%", "_", "\\", "%夜%", "<img src=x onerror=alert(1)>"]) {
      const res = await search({ keyword });
      expect(res.statusCode, keyword).toBeLessThan(500);
      if (res.statusCode === 200) expect(res.json().data.list.length).toBeLessThanOrEqual(5);
    }
    expect(await names({ keyword: "drop table" })).toEqual(["<script>alert(1)</script> 夜店"]);
    expect(await names({ keyword: "<script>" })).toEqual(["<script>alert(1)</script> 夜店"]);
    expect(await names({ keyword: "%" })).toEqual([]);
    expect(await names({ keyword: "zjl" })).not.toHaveLength(0); // the table is still there
  });

  it("documents the route in OpenAPI with its query parameters", async () => {
    const doc = (await app.inject("/api/docs/json")).json();
    const op = doc.paths["/api/forntend/indexsearch"].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["keyword", "page", "limit", "pageSize", "channelid", "type", "filter", "specify"]),
    );
    expect(op.responses["200"]).toBeDefined();
  });
});
