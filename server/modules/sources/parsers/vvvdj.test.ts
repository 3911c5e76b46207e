import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SourceError } from "../types.js";
import { encodePlayUrl } from "./vvvdj-playurl.encoder.js";
import { VVVDJ_CATEGORIES, readVvvdjCategory, readVvvdjCharts, readVvvdjPlayPage, readVvvdjSearch, readVvvdjTemp, vvvdjCategoryPath, vvvdjPaths } from "./vvvdj.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/vvvdj/${name}`, import.meta.url), "utf8");
const SITE = "https://www.vvvdj.com";
const MOBILE = "https://m.vvvdj.com";

function errorOf(run: () => unknown): SourceError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SourceError);
    return error as SourceError;
  }
  throw new Error("expected a SourceError");
}

describe("清风DJ search pages", () => {
  it("desktop: the total, the left column's items only, highlights dropped, n/M paging", () => {
    const page = readVvvdjSearch(fixture("search.html"), `${SITE}/search/so?key=%E5%A4%9C%E6%9B%B2&cid=0&list=3&page=1`);
    expect(page.total).toBe(128);
    expect(page.hasMore).toBe(true);
    // Not the nav's 今日推荐 (200001) nor the right column's hot tracks (1990xx).
    expect(page.items.map((i) => [i.sourceId, i.position, i.artist, i.title, i.kind])).toEqual([
      ["234567", 1, "周杰伦", "夜曲(DJ阿远 Electro Rmx 2026)", "single"],
      ["234001", 2, null, "福州DJ阿远-全中文国粤语Club音乐周杰伦夜曲经典慢摇串烧", "mix"],
      ["198765", 3, "蔡健雅", "夜曲(DJ细霖 ProgHouse Rmx 2024 粤语)", "single"],
    ]);
    expect(page.items[0]).toMatchObject({ source: "vvvdj", url: `${SITE}/play/234567.html` });
    expect(page.items[0].raw).toMatchObject({ href: "/play/234567.html", title: "【清风DJ独家】周杰伦 - 夜曲(DJ阿远 Electro Rmx 2026)" });
  });

  it("the caller's cid decides the kind (1 串烧, 2 单曲)", () => {
    const page = readVvvdjSearch(fixture("search.html"), `${SITE}/search/so?key=x&cid=2`, { siteKind: "single" });
    expect(page.items.every((i) => i.kind === "single")).toBe(true);
  });

  it("desktop and mobile empty answers are no results", () => {
    expect(readVvvdjSearch(fixture("search-empty.html"), `${SITE}/search/so?key=qqqzzz`)).toEqual({ items: [], total: 0, hasMore: false });
    expect(readVvvdjSearch(fixture("search-mobile-empty.html"), `${MOBILE}/search/so?key=qqqzzz`)).toEqual({ items: [], total: 0, hasMore: false });
  });

  it("mobile: <p> titles without <em> highlights, relative and absolute links, .pagetext paging", () => {
    const page = readVvvdjSearch(fixture("search-mobile.html"), `${MOBILE}/search/so?key=%E5%A4%9C%E6%9B%B2`);
    expect(page.hasMore).toBe(true);
    expect(page.items.map((i) => [i.sourceId, i.url, i.artist, i.title])).toEqual([
      ["234567", `${MOBILE}/play/234567.html`, "周杰伦", "夜曲(DJ阿远 Electro Rmx 2026)"],
      ["234001", `${MOBILE}/play/234001.html`, null, "福州DJ阿远-全中文国粤语Club音乐周杰伦夜曲经典慢摇串烧"],
      ["198765", `${MOBILE}/play/198765.html`, "蔡健雅", "夜曲(DJ细霖 ProgHouse Rmx 2024 粤语)"],
    ]);
  });

  it("a changed layout is an error, not an empty page", () => {
    expect(errorOf(() => readVvvdjSearch(fixture("search-changed-layout.html"), `${SITE}/search/so?key=x`))).toMatchObject({ source: "vvvdj", kind: "layout" });
    // The total is there but the end marker went: we cannot tell the list from the sidebar.
    const withoutMarker = fixture("search.html").replace("<!--左侧结束-->", "");
    expect(errorOf(() => readVvvdjSearch(withoutMarker, `${SITE}/search/so?key=x`)).kind).toBe("layout");
    // Records announced, none readable.
    const renamed = fixture("search.html").replace(/title="/gu, 'data-title="');
    expect(errorOf(() => readVvvdjSearch(renamed, `${SITE}/search/so?key=x`)).kind).toBe("layout");
  });

  it("reads malformed HTML (unclosed td, tr, a, font and table)", () => {
    const page = readVvvdjSearch(fixture("search-malformed.html"), `${SITE}/search/so?key=dj&page=3`);
    expect(page).toMatchObject({ total: 42, hasMore: false });
    expect(page.items.map((i) => [i.sourceId, i.artist, i.title, i.kind])).toEqual([
      ["300001", "DJ Snake", "Taki Taki(DJ阿福 Remix)", "single"],
      ["300002", null, "全英文Mashup MixSet车载串烧", "mix"],
    ]);
  });
});

describe("清风DJ category pages", () => {
  it("the table shape: rows after the header, id from input.sortid, name from .t1, the date, a > next page", () => {
    const page = readVvvdjCategory(fixture("sort-table.html"), `${SITE}${vvvdjCategoryPath("c2", 3, 1, 5)}`, { siteKind: VVVDJ_CATEGORIES.c2.kind });
    expect(page.hasMore).toBe(true);
    expect(page.items.map((i) => [i.sourceId, i.position, i.title, i.kind, i.raw.date])).toEqual([
      ["231188", 1, "南宁DJ细霖-2026全中文国语慢摇串烧《伤感情歌》", "mix", "2026/11/20"],
      ["231102", 2, "深圳DJ小辉-全国语Mashup连续串烧Vol.8", "mix", "2026/11/18"],
      ["230977", 3, "广州DJ阿强-粤语经典慢摇大串烧", "mix", "2026/11/15"],
    ]);
    expect(page.items[0].url).toBe(`${SITE}/play/231188.html`);
    expect(page.items[0].raw.cells).toEqual(["", "231188", "南宁DJ细霖-2026全中文国语慢摇串烧《伤感情歌》", "试听 下载", "2026/11/20", "12034"]);
  });

  it("the 2023 shape: absolute and scheme-relative links, deduplicated, last page", () => {
    const page = readVvvdjCategory(fixture("sort-2023.html"), `${SITE}${vvvdjCategoryPath("c5", 6, 12, 5, 6)}`);
    expect(page.hasMore).toBe(false);
    expect(page.items.map((i) => [i.sourceId, i.url, i.artist, i.title])).toEqual([
      ["225001", `${SITE}/play/225001.html`, "刀郎", "罗刹海市(DJ阿远 Club Rmx 2026)"],
      ["225002", `${SITE}/play/225002.html`, "王靖雯", "沦陷(DJ小鱼儿 Electro Rmx)"],
      ["225003", `${SITE}/play/225003.html`, "杨坤", "那一天(DJ细霖 Club Rmx)"],
    ]);
  });

  it("an empty category is no results; another shape is a changed layout", () => {
    expect(readVvvdjCategory(fixture("sort-empty.html"), `${SITE}/sort/c2/3-0-0-1-1.html`)).toEqual({ items: [], hasMore: false });
    expect(errorOf(() => readVvvdjCategory(fixture("sort-changed-layout.html"), `${SITE}/sort/c5/6-0-0-1-1.html`)).kind).toBe("layout");
    const noIds = fixture("sort-table.html").replace(/class="sortid"[^>]*>/gu, ">").replace(/<td>23\d{4}<\/td>/gu, "<td></td>");
    expect(errorOf(() => readVvvdjCategory(noIds, `${SITE}/sort/c2/3-0-0-1-1.html`)).kind).toBe("layout");
  });

  it("the category table is data: nine categories, global sub ids", () => {
    expect(Object.entries(VVVDJ_CATEGORIES).map(([key, c]) => `${key} ${c.name}`)).toEqual([
      "c1 的高串烧", "c2 慢摇串烧", "c3 中文DISCO", "c4 外文DISCO", "c5 中文CLUB", "c6 外文CLUB", "c7 电音HOUSE", "c8 酒吧潮歌", "c9 交谊舞曲",
    ]);
    const subs = Object.values(VVVDJ_CATEGORIES).flatMap((c) => c.subs);
    expect(new Set(subs).size).toBe(subs.length);
    expect(VVVDJ_CATEGORIES.c9.subs).toEqual(Array.from({ length: 18 }, (_, i) => 34 + i));
    expect(vvvdjCategoryPath("c7", 14, 2, 5, 6)).toBe("/sort/c7/14-5-0-6-2.html");
    expect(vvvdjPaths.search("夜曲", 2, 1)).toBe("/search/so?key=%E5%A4%9C%E6%9B%B2&cid=1&list=3&page=2");
    expect(vvvdjPaths.temp(["234567", "234001"])).toBe("/play/ajax/temp?ids=234567,234001");
  });
});

describe("清风DJ home chart widget (markup guessed: SOURCES.md describes it in words only)", () => {
  it("reads 串烧/单曲 × 周榜/月榜/季榜 into our chart keys, top 10 each, in order", () => {
    const charts = readVvvdjCharts(fixture("home.html"), `${SITE}/`);
    expect(Object.keys(charts).sort()).toEqual(["dan_rank_month", "dan_rank_quarter", "dan_rank_week", "rank_month", "rank_quarter", "rank_week"]);
    for (const page of Object.values(charts)) {
      expect(page.items).toHaveLength(10);
      expect(page.hasMore).toBe(false);
      expect(page.items.map((i) => i.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }
    expect(charts.rank_week.items.every((i) => i.kind === "mix")).toBe(true);
    expect(charts.dan_rank_week.items.every((i) => i.kind === "single" && i.artist)).toBe(true);
    expect(charts.dan_rank_week.items[0]).toMatchObject({ sourceId: "250008", artist: "任然", title: "飞鸟和蝉(DJ阿强 Rmx)", url: `${SITE}/play/250008.html` });
    // Not the "最新上传" list beside the widget.
    expect(Object.values(charts).flatMap((p) => p.items).some((i) => i.sourceId === "231188")).toBe(false);
  });

  it("a home page without the widget, or with a tab missing, is a changed layout", () => {
    expect(errorOf(() => readVvvdjCharts(fixture("search.html"), `${SITE}/`)).kind).toBe("layout");
    const noQuarter = fixture("home.html").replace(/<span data-list="ph_dq_q">季榜<\/span>/u, "");
    expect(errorOf(() => readVvvdjCharts(noQuarter, `${SITE}/`)).message).toContain("dan_rank_quarter");
  });
});

describe("清风DJ play pages", () => {
  it("reads the <h1> title and decodes the playurl call into an HLS address with its expiry", () => {
    const { details, media } = readVvvdjPlayPage(fixture("play.html"), `${SITE}/play/234567.html`);
    expect(details).toMatchObject({ source: "vvvdj", sourceId: "234567", artist: "周杰伦", title: "夜曲(DJ阿远 Electro Rmx 2026)", cover: `${SITE}/upload/pic/2026/11/234567.jpg`, tracklist: [] });
    expect(details.position).toBeUndefined();
    expect(media).toEqual({
      url: `https://tspc.vvvdj.com/c1/2026/11/234567-ab12cd/234567.m3u8?upt=5f3e2d1c${Date.UTC(2026, 11, 22, 15, 59, 59) / 1000}&news`,
      headers: { Referer: `${SITE}/` },
      format: "hls",
      expiresAt: Date.UTC(2026, 11, 22, 15, 59, 59),
    });
  });

  it("the mobile page, forward mode, double quotes", () => {
    const { details, media } = readVvvdjPlayPage(fixture("play-mobile.html"), `${MOBILE}/play/223344.html`);
    expect(details).toMatchObject({ sourceId: "223344", artist: null, kind: "mix" });
    expect(media.url).toMatch(/^https:\/\/tspc\.vvvdj\.com\/c5\/2026\/10\/223344-0f9e8d\/223344\.m3u8\?upt=a0b1c2d3\d{10}&news$/u);
    expect(media.expiresAt).toBe(Date.UTC(2026, 11, 1, 15, 59, 59));
    expect(media.headers).toEqual({ Referer: `${MOBILE}/` });
  });

  it("a removed track is expired; no call is a changed layout; a call that does not decode is too", () => {
    expect(errorOf(() => readVvvdjPlayPage(fixture("play-removed.html"), `${SITE}/play/1.html`)).kind).toBe("expired");
    expect(errorOf(() => readVvvdjPlayPage(fixture("play-changed-layout.html"), `${SITE}/play/234567.html`)).kind).toBe("layout");
    const wrongKey = fixture("play.html").replace("'k3Vq8ZtL0xWm5RcY7bNd2HfJ9sPg4AeU'", "'k3V'");
    expect(errorOf(() => readVvvdjPlayPage(wrongKey, `${SITE}/play/234567.html`)).kind).toBe("layout");
  });

  it("plays an address encoded here, with any key", () => {
    const address = "//tspc.vvvdj.com/c8/2026/11/240777-c0ffee/240777.m3u8?upt=0badf00d1797523199&news";
    const key = "Zx9Wv8Ut7Sr6Qp5On4Ml3Kj2Ih1Gf0Ed";
    const html = `<h1>越南鼓 - 再见莫妮卡(DJ版)</h1><script>playurl=x.O000O0OO0O0OO('${encodePlayUrl(address, key, "e1", 99)}','${key}');</script>`;
    expect(readVvvdjPlayPage(html, `${SITE}/play/240777.html`).media).toMatchObject({ url: `https:${address}`, expiresAt: 1797523199000 });
  });
});

describe("清风DJ /play/ajax/temp", () => {
  it("parses the double-encoded JSON, keeping every field", () => {
    const items = readVvvdjTemp(fixture("temp.json"), `${SITE}/play/ajax/temp?ids=234567,234001`);
    expect(items.map((i) => [i.sourceId, i.url, i.artist, i.title, i.kind])).toEqual([
      ["234567", `${SITE}/play/234567.html`, "周杰伦", "夜曲(DJ阿远 Electro Rmx 2026)", "single"],
      ["234001", `${SITE}/play/234001.html`, null, "福州DJ阿远-全中文国粤语Club音乐周杰伦夜曲经典慢摇串烧", "mix"],
    ]);
    expect(items[0].raw).toEqual({ id: 234567, musicname: "【清风DJ独家】周杰伦 - 夜曲(DJ阿远 Electro Rmx 2026)", musicpic: "/upload/pic/2026/11/234567.jpg", hits: 81234, addtime: "2026/11/02" });
    // Should the site stop double-encoding, the same reader still works.
    expect(readVvvdjTemp(JSON.parse(fixture("temp.json")) as string, `${SITE}/play/ajax/temp?ids=1`)).toHaveLength(2);
  });

  it("a Result other than 200 is an error; another shape is a changed layout", () => {
    expect(errorOf(() => readVvvdjTemp(fixture("temp-refused.json"), `${SITE}/play/ajax/temp?ids=x`))).toMatchObject({ kind: "http", source: "vvvdj" });
    expect(errorOf(() => readVvvdjTemp("<html>502 Bad Gateway</html>", SITE)).kind).toBe("layout");
    expect(errorOf(() => readVvvdjTemp(JSON.stringify(JSON.stringify({ Result: 200, Data: [{ id: 1 }] })), SITE)).kind).toBe("layout");
    expect(errorOf(() => readVvvdjTemp(JSON.stringify({ code: 1, data: [] }), SITE)).kind).toBe("layout");
  });
});
