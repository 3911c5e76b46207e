import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../../../testing/log-capture.js";
import { html, redirectTo, resetMidBody, startFixtureSite, status, withLatency, type FixtureSite } from "../../../testing/fixture-site.js";
import { encodePlayUrl } from "../parsers/vvvdj-playurl.encoder.js";
import { createSourceAdapters, type SourceOverride } from "../registry.js";
import { SourceError } from "../types.js";
import { vvvdjCategoryKeys } from "./vvvdj.js";

/** The page readers' fixtures, served by a local 清风DJ. */
const page = (name: string) => readFileSync(new URL(`../parsers/fixtures/vvvdj/${name}`, import.meta.url), "utf8");

const KEY = "Zx9Wv8Ut7Sr6Qp5On4Ml3Kj2Ih1Gf0Ed";
const DAY = 86_400_000;
/** Tokens of the play pages below: one valid for 30 more days, one past since yesterday (whole seconds, as upt writes them). */
const VALID_UNTIL = Math.floor((Date.now() + 30 * DAY) / 1000) * 1000;
const EXPIRED_AT = Math.floor((Date.now() - DAY) / 1000) * 1000;

/** A play page whose stream token expires at `expiresAt` (Unix ms), encoded as the site does. */
function playPageExpiring(id: string, expiresAt: number): { html: string; address: string } {
  const address = `//tspc.vvvdj.com/c1/2026/11/${id}-ab12cd/${id}.m3u8?upt=5f3e2d1c${Math.floor(expiresAt / 1000)}&news`;
  return {
    address: `https:${address}`,
    html: `<html><body><h1>周杰伦 - 夜曲(DJ阿远 Rmx)</h1><script>var x = new vvvPlayer("#jp");
playurl=x.O000O0OO0O0OO('${encodePlayUrl(address, KEY, "e1", 11)}','${KEY}');</script></body></html>`,
  };
}

let site: FixtureSite;
let log: ReturnType<typeof captureLog>;
const closers: (() => void)[] = [];
afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await site?.close();
});

/** 清风DJ with today's pages: 夜曲 has 7 pages (page N says "N/7页"), anything else none. */
function serveVvvdj(s: FixtureSite): void {
  s.route("/search/so", (req, res, match) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    if (query.get("key") !== "夜曲") return html(page("search-empty.html"))(req, res, match);
    return html(page("search.html").replace("1/7页", `${query.get("page")}/7页`))(req, res, match);
  })
    .route("/sort/c2/3-0-0-1-1.html", html(page("sort-table.html")))
    .route("/sort/c5/6-5-0-6-12.html", html(page("sort-2023.html")))
    .route("/", html(page("home.html")))
    .route("/play/234567.html", html(page("play.html")))
    .route("/play/234568.html", html(playPageExpiring("234568", VALID_UNTIL).html))
    .route("/play/234569.html", html(playPageExpiring("234569", EXPIRED_AT).html))
    .route("/play/1.html", html(page("play-removed.html")));
}

async function vvvdj(override: (s: FixtureSite) => void = () => {}, settings: SourceOverride = {}) {
  site = await startFixtureSite();
  override(site);
  serveVvvdj(site);
  log = captureLog();
  const built = createSourceAdapters({
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: log.logger,
    overrides: { vvvdj: { baseUrl: site.url, allowAddresses: [site.host], minIntervalMs: 0, ...settings } },
  });
  closers.push(built.close);
  return built.sources.find((s) => s.code === "vvvdj")!.adapter;
}

async function failure(promise: Promise<unknown>): Promise<SourceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

const search = (keyword: string, page = 1) => ({ keyword, page, type: "mp3" as const });

describe("清风DJ: search", () => {
  it("finds items for a Chinese keyword: the left column only, the site's total, a next page", async () => {
    const adapter = await vvvdj();
    const result = await adapter.search(search("夜曲"));
    expect(site.hits.at(-1)!.url).toBe("/search/so?key=%E5%A4%9C%E6%9B%B2&cid=0&list=3&page=1");
    expect(result).toMatchObject({ total: 128, hasMore: true });
    expect(result.items.map((i) => [i.sourceId, i.artist, i.title, i.kind, i.position])).toEqual([
      ["234567", "周杰伦", "夜曲(DJ阿远 Electro Rmx 2026)", "single", 1],
      ["234001", null, "福州DJ阿远-全中文国粤语Club音乐周杰伦夜曲经典慢摇串烧", "mix", 2],
      ["198765", "蔡健雅", "夜曲(DJ细霖 ProgHouse Rmx 2024 粤语)", "single", 3],
    ]);
    expect(result.items[0]).toMatchObject({ source: "vvvdj", url: `${site.url}/play/234567.html`, playtype: "mp3" });
  });

  it("reads the next pages and sees the last", async () => {
    const adapter = await vvvdj();
    expect((await adapter.search(search("夜曲", 2))).hasMore).toBe(true);
    expect(site.hits.at(-1)!.query.get("page")).toBe("2");
    expect((await adapter.search(search("夜曲", 7))).hasMore).toBe(false);
  });

  it("asks the site's own kind: cid 1 串烧, 2 单曲, and marks items with it; no video without asking", async () => {
    const adapter = await vvvdj();
    const mixes = await adapter.search({ ...search("夜曲"), kind: "mix" });
    expect(site.hits.at(-1)!.query.get("cid")).toBe("1");
    expect(mixes.items.every((i) => i.kind === "mix")).toBe(true);
    await adapter.search({ ...search("夜曲"), kind: "single" });
    expect(site.hits.at(-1)!.query.get("cid")).toBe("2");
    const hits = site.hits.length;
    expect(await adapter.search({ ...search("夜曲"), type: "mp4" })).toEqual({ items: [], hasMore: false });
    expect(site.hits).toHaveLength(hits);
  });

  it("answers an empty page when the site found nothing", async () => {
    const adapter = await vvvdj();
    expect(await adapter.search(search("没有这首歌"))).toEqual({ items: [], total: 0, hasMore: false });
  });

  it("reports a changed layout as a source error, never as no results", async () => {
    const adapter = await vvvdj((s) => s.route("/search/so", html(page("search-changed-layout.html"))));
    expect((await failure(adapter.search(search("夜曲")))).kind).toBe("layout");
  });

  it("still reads malformed HTML (unclosed td, tr, a, font and table)", async () => {
    const adapter = await vvvdj((s) => s.route("/search/so", html(page("search-malformed.html"))));
    const result = await adapter.search(search("dj", 3));
    expect(result).toMatchObject({ total: 42, hasMore: false });
    expect(result.items.map((i) => i.sourceId)).toEqual(["300001", "300002"]);
  });

  it("reports a slow site as a timeout (the fetcher's own)", async () => {
    const adapter = await vvvdj((s) => s.route("/search/so", withLatency(1_000, html(page("search.html")))), { timeoutMs: 150 });
    expect((await failure(adapter.search(search("夜曲")))).kind).toBe("timeout");
  });

  it("reports a connection reset mid-body as a network error, a 403 as blocked", async () => {
    const adapter = await vvvdj((s) => s.route("/search/so", resetMidBody()).route("/sort/c1/1-0-0-1-1.html", status(403)));
    expect((await failure(adapter.search(search("夜曲")))).kind).toBe("network");
    expect((await failure(adapter.listCategory("c1/1", 1))).kind).toBe("blocked");
  });

  it("refuses a redirect to a private address, and logs it", async () => {
    const adapter = await vvvdj((s) => s.route("/search/so", redirectTo("http://10.0.0.8/internal")), { extraHosts: ["10.0.0.8"] });
    expect((await failure(adapter.search(search("夜曲")))).kind).toBe("forbidden_address");
    expect(log.lines.some((l) => l.msg === "source request refused (SSRF guard)" && l.source === "vvvdj" && l.address === "10.0.0.8")).toBe(true);
  });
});

describe("清风DJ: categories and charts", () => {
  it("lists a category by its key c{N}/{sub}, optionally -{lang}-{order}", async () => {
    const adapter = await vvvdj();
    const first = await adapter.listCategory("c2/3", 1);
    expect(site.hits.at(-1)!.path).toBe("/sort/c2/3-0-0-1-1.html");
    expect(first.hasMore).toBe(true);
    expect(first.items.map((i) => [i.sourceId, i.kind])).toEqual([
      ["231188", "mix"],
      ["231102", "mix"],
      ["230977", "mix"],
    ]);
    const club = await adapter.listCategory("c5/6-5-6", 12);
    expect(site.hits.at(-1)!.path).toBe("/sort/c5/6-5-0-6-12.html");
    expect(club.hasMore).toBe(false);
    expect(club.items).toHaveLength(3);
  });

  it("refuses keys that are not the site's: unknown category, a sub of another category, another shape", async () => {
    const adapter = await vvvdj();
    for (const key of ["c0/1", "c2/6", "c2", "../c2/3"]) expect((await failure(adapter.listCategory(key, 1))).kind).toBe("not_found");
    expect(site.hits).toHaveLength(0);
    expect(vvvdjCategoryKeys()).toContain("c9/51");
    expect(vvvdjCategoryKeys()).toHaveLength(48) // 2+4+3+3+3+3+6+6+18 sub-lists;
  });

  it("charts from the home widget: 串烧/单曲 × 周/月/季, a day asks the week's", async () => {
    const adapter = await vvvdj();
    const week = await adapter.listChart({ period: "week", kind: "single" });
    expect(site.hits.at(-1)!.path).toBe("/");
    expect(week.items).toHaveLength(10);
    expect(week.items[0]).toMatchObject({ sourceId: "250008", artist: "任然", position: 1, kind: "single" });
    expect(await adapter.listChart({ period: "day", kind: "single" })).toEqual(week);
    const mixes = await adapter.listChart({ period: "quarter", kind: "mix" });
    expect(mixes.items.every((i) => i.kind === "mix")).toBe(true);
    expect(mixes.items.map((i) => i.sourceId)).not.toEqual(week.items.map((i) => i.sourceId));
  });

  it("a home page without its widget is a changed layout", async () => {
    const adapter = await vvvdj((s) => s.route("/", html(page("search.html"))));
    expect((await failure(adapter.listChart({ period: "week", kind: "mix" }))).kind).toBe("layout");
  });
});

describe("清风DJ: details and media", () => {
  it("reads details from /play/{id}.html", async () => {
    const adapter = await vvvdj();
    const details = await adapter.details("234567");
    expect(site.hits.at(-1)!.path).toBe("/play/234567.html");
    expect(details).toMatchObject({
      source: "vvvdj",
      sourceId: "234567",
      url: `${site.url}/play/234567.html`,
      artist: "周杰伦",
      title: "夜曲(DJ阿远 Electro Rmx 2026)",
      cover: `${site.url}/upload/pic/2026/11/234567.jpg`,
      kind: "single",
      tracklist: [],
    });
  });

  it("resolves the decoded HLS address, its expiry from upt, and the site's Referer", async () => {
    const adapter = await vvvdj();
    expect(await adapter.resolveMedia("234568")).toEqual({
      url: playPageExpiring("234568", VALID_UNTIL).address,
      headers: { Referer: "https://www.vvvdj.com/" },
      format: "hls",
      expiresAt: VALID_UNTIL,
    });
  });

  it("an upt already past, a removed track or a page gone is expired", async () => {
    const adapter = await vvvdj();
    const error = await failure(adapter.resolveMedia("234569"));
    expect(error.kind).toBe("expired");
    expect(error.message).toContain(new Date(EXPIRED_AT).toISOString());
    expect((await failure(adapter.resolveMedia("1"))).kind).toBe("expired");
    expect((await failure(adapter.resolveMedia("404404"))).kind).toBe("expired");
    expect((await failure(adapter.details("404404"))).kind).toBe("not_found");
    expect((await failure(adapter.details("abc"))).kind).toBe("not_found");
  });

  it("a play page that changed is a layout error", async () => {
    const adapter = await vvvdj((s) => s.route("/play/234567.html", html(page("play-changed-layout.html"))));
    expect((await failure(adapter.resolveMedia("234567"))).kind).toBe("layout");
  });
});
