import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../../../testing/log-capture.js";
import { html, redirectTo, resetMidBody, startFixtureSite, status, withLatency, type FixtureSite } from "../../../testing/fixture-site.js";
import { createSourceAdapters, type SourceOverride } from "../registry.js";
import { SourceError } from "../types.js";

/** The page readers' fixtures, served by a local 172Mix (its links stay absolute to www.172mix.com, as the site writes them). */
const page = (name: string) => readFileSync(new URL(`../parsers/fixtures/172minx/${name}`, import.meta.url), "utf8");

let site: FixtureSite;
let log: ReturnType<typeof captureLog>;
const closers: (() => void)[] = [];
afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await site?.close();
});

/** A 172Mix with today's pages; `override` registers routes that win over them. */
function serveMinx(s: FixtureSite): void {
  s.route("/searches", (req, res, match) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    const keyword = query.get("query") ?? "";
    // Its firewall, logged out: any non-ASCII query is refused.
    if (/[^\x00-\x7f]/u.test(keyword)) return status(403, "403 Forbidden")(req, res, match);
    if (keyword !== "yequ") return html(page("search-empty.html"))(req, res, match);
    const body = page("search.html");
    return html(query.get("page") === "1" ? body : body.replace(/<li class="page-item"><a [^>]*rel="next">›<\/a><\/li>/u, ""))(req, res, match);
  })
    .route("/genre/csds2/page/2", html(page("genre-csds2-page2.html")))
    .route("/genre/csds2", html(page("search.html")))
    .route("/ranks/zwphb", html(page("rank-zwphb.html")))
    .route("/ranks/sjcsds", html(page("genre-csds2-page2.html")))
    .route("/play/6a3f9c01", html(page("play.html")))
    .route("/play/6a3f9c02", html(page("play-reordered.html")))
    .route("/play/7b1d2e03", html(page("play-setmedia.html")))
    .route("/play/gone01", html(page("play-removed.html")));
}

async function minx(override: (s: FixtureSite) => void = () => {}, settings: SourceOverride = {}) {
  site = await startFixtureSite();
  override(site);
  serveMinx(site);
  log = captureLog();
  const built = createSourceAdapters({
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: log.logger,
    overrides: { "172minx": { baseUrl: site.url, allowAddresses: [site.host], minIntervalMs: 0, ...settings } },
  });
  closers.push(built.close);
  return built.sources.find((s) => s.code === "172minx")!.adapter;
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

describe("172Mix: search", () => {
  it("declares it cannot serve a non-ASCII keyword (its firewall's certain 403) and never sends one", async () => {
    const adapter = await minx();
    expect(adapter.servesQuery?.(search("夜曲"))).toBe(false);
    expect(adapter.servesQuery?.(search("DJ小鱼"))).toBe(false);
    expect(adapter.servesQuery?.(search("yequ remix"))).toBe(true);
    const error = await failure(adapter.search(search("夜曲")));
    expect(error).toMatchObject({ source: "172minx", kind: "blocked" });
    expect(error.message).toContain("non-ASCII");
    expect(site.hits).toHaveLength(0);
  });

  it("a 403 for an ASCII query is still the firewall refusing us: blocked, never no results", async () => {
    const adapter = await minx((s) => s.route("/searches", status(403, "403 Forbidden")));
    const error = await failure(adapter.search(search("yequ")));
    expect(site.hits.at(-1)!.url).toBe("/searches?query=yequ&page=1");
    expect(error).toMatchObject({ source: "172minx", kind: "blocked", status: 403 });
  });

  it("finds items for an ASCII query: track items, absolute links, the site's fields kept, a next page", async () => {
    const adapter = await minx();
    const result = await adapter.search(search("yequ"));
    expect(site.hits.at(-1)!.url).toBe("/searches?query=yequ&page=1");
    expect(site.hits.at(-1)!.headers["user-agent"]).toBe("DJSearchBot/1.0 (+http://test/about)");
    expect(result.hasMore).toBe(true);
    expect(result.items.map((i) => [i.sourceId, i.artist, i.kind, i.position])).toEqual([
      ["6a3f9c01", "周杰伦", "single", 1],
      ["6a3f9c02", null, "mix", 2],
      ["5b7e0d11", expect.any(String), "single", 3],
      ["4c2d8e77", "蔡健雅", "single", 4],
    ]);
    expect(result.items[0]).toMatchObject({ source: "172minx", url: "https://www.172mix.com/play/6a3f9c01", title: "夜曲(DJ阿远 Electro Rmx 2026)" });
    expect(result.items[0]!.raw.title).toBe("【172Mix独家】周杰伦 - 夜曲(DJ阿远 Electro Rmx 2026)");
  });

  it("reads the next page and sees it is the last; filters by kind; answers no video without asking", async () => {
    const adapter = await minx();
    const second = await adapter.search(search("yequ", 2));
    expect(site.hits.at(-1)!.url).toBe("/searches?query=yequ&page=2");
    expect(second.hasMore).toBe(false);
    expect((await adapter.search({ ...search("yequ"), kind: "mix" })).items.map((i) => i.sourceId)).toEqual(["6a3f9c02"]);
    const hits = site.hits.length;
    expect(await adapter.search({ ...search("yequ"), type: "mp4" })).toEqual({ items: [], hasMore: false });
    expect(site.hits).toHaveLength(hits);
  });

  it("answers an empty page when the site found nothing", async () => {
    const adapter = await minx();
    expect(await adapter.search(search("zzqx"))).toEqual({ items: [], hasMore: false });
  });

  it("reports a changed layout as a source error, never as no results", async () => {
    const adapter = await minx((s) => s.route("/searches", html(page("search-changed-layout.html"))));
    expect((await failure(adapter.search(search("yequ")))).kind).toBe("layout");
  });

  it("still reads malformed HTML (unclosed tags, cut short)", async () => {
    const adapter = await minx((s) => s.route("/searches", html(page("search-malformed.html"))));
    const result = await adapter.search(search("dj"));
    expect(result.items.map((i) => [i.sourceId, i.kind])).toEqual([
      ["9a0b1c01", "single"],
      ["9a0b1c02", "single"],
      ["9a0b1c03", "mix"],
    ]);
  });

  it("reports a slow site as a timeout (the fetcher's own)", async () => {
    const adapter = await minx((s) => s.route("/searches", withLatency(1_000, html(page("search.html")))), { timeoutMs: 150 });
    const error = await failure(adapter.search(search("yequ")));
    expect(error.kind).toBe("timeout");
    expect(error.message).toContain("150 ms");
  });

  it("reports a connection reset mid-body as a network error", async () => {
    const adapter = await minx((s) => s.route("/searches", resetMidBody()));
    expect((await failure(adapter.search(search("yequ")))).kind).toBe("network");
  });

  it("refuses a redirect to a private address, and logs it", async () => {
    // The metadata address even listed as a host: the address guard still refuses it.
    const adapter = await minx((s) => s.route("/searches", redirectTo("http://169.254.169.254/latest/meta-data/")), { extraHosts: ["169.254.169.254"] });
    expect((await failure(adapter.search(search("yequ")))).kind).toBe("forbidden_address");
    expect(log.lines.some((l) => l.msg === "source request refused (SSRF guard)" && l.source === "172minx" && l.host === "169.254.169.254")).toBe(true);
    expect(site.hits.map((h) => h.path)).toEqual(["/searches"]);
  });
});

describe("172Mix: genres and charts", () => {
  it("lists a genre: page 1 at /genre/{slug}, page N at /genre/{slug}/page/N, the genre's kind", async () => {
    const adapter = await minx();
    const first = await adapter.listCategory("csds2", 1);
    expect(site.hits.at(-1)!.path).toBe("/genre/csds2");
    expect(first.hasMore).toBe(true);
    const second = await adapter.listCategory("csds2", 2);
    expect(site.hits.at(-1)!.path).toBe("/genre/csds2/page/2");
    expect(second.hasMore).toBe(false);
    expect(second.items.map((i) => [i.sourceId, i.kind])).toEqual([
      ["31415", "mix"],
      ["27182", "mix"],
      ["16180", "mix"],
    ]);
    expect(second.items[0]!.url).toBe(`${site.url}/play/31415.html`); // a relative link (2024 page), made absolute
    expect((await failure(adapter.listCategory("../admin", 1))).kind).toBe("not_found");
  });

  it("charts: singles read 中文榜, mixes 串烧榜, for every period (the ranks have none), never paged", async () => {
    const adapter = await minx();
    const singles = await adapter.listChart({ period: "day", kind: "single" });
    expect(site.hits.at(-1)!.path).toBe("/ranks/zwphb");
    expect(singles).toMatchObject({ hasMore: false });
    expect(singles.items.map((i) => [i.position, i.artist])).toEqual([[1, "刀郎"], [2, "王靖雯"], [3, "杨坤"]]);
    await adapter.listChart({ period: "quarter", kind: "single" });
    expect(site.hits.at(-1)!.path).toBe("/ranks/zwphb");
    const mixes = await adapter.listChart({ period: "month", kind: "mix" });
    expect(site.hits.at(-1)!.path).toBe("/ranks/sjcsds");
    expect(mixes.items.every((i) => i.kind === "mix")).toBe(true);
    expect(mixes.items).toHaveLength(3);
  });

  it("other ranks are categories `ranks/{slug}`, one page only", async () => {
    const adapter = await minx();
    expect((await adapter.listCategory("ranks/zwphb", 1)).items).toHaveLength(3);
    const hits = site.hits.length;
    expect(await adapter.listCategory("ranks/zwphb", 2)).toEqual({ items: [], hasMore: false });
    expect(site.hits).toHaveLength(hits);
    expect((await failure(adapter.listCategory("ranks/nope", 1))).kind).toBe("not_found");
  });
});

describe("172Mix: details and media", () => {
  it("reads details from /play/{id}", async () => {
    const adapter = await minx();
    const details = await adapter.details("6a3f9c01");
    expect(site.hits.at(-1)!.path).toBe("/play/6a3f9c01");
    expect(details).toMatchObject({
      source: "172minx",
      sourceId: "6a3f9c01",
      url: `${site.url}/play/6a3f9c01`,
      artist: "周杰伦",
      title: "夜曲(DJ阿远 Electro Rmx 2026)",
      cover: "https://img.172mix.com/cover/20261102/6a3f9c01.jpg",
      kind: "single",
      tracklist: [],
    });
    expect((await adapter.details("6a3f9c02")).kind).toBe("mix");
  });

  it("resolves the address of var media with the site's Referer", async () => {
    const adapter = await minx();
    expect(await adapter.resolveMedia("6a3f9c01")).toEqual({
      url: "https://mp3.172mix.com/mp3/userdj/20261102/6a3f9c01e5b84d2aa1c07f3e9d1b2c44.m4a",
      headers: { Referer: "https://www.172mix.com/" },
      format: "m4a",
    });
  });

  it("plays a page that has only a player's setMedia (no var media): the first address on mp3.172mix.com", async () => {
    const adapter = await minx();
    expect(await adapter.resolveMedia("7b1d2e03")).toEqual({
      url: "https://mp3.172mix.com/mp3/userdj/20261105/7b1d2e03a4f5468c9d0e1f2a3b4c5d6e.m4a",
      headers: { Referer: "https://www.172mix.com/" },
      format: "m4a",
    });
    expect(await adapter.details("7b1d2e03")).toMatchObject({ sourceId: "7b1d2e03", artist: "林俊杰", title: "江南(DJ阿远 ProgHouse Rmx 2026)" });
    expect(site.hits.map((h) => h.path)).toEqual(["/play/7b1d2e03", "/play/7b1d2e03"]);
  });

  it("a removed track or a play page gone is expired; details of a gone page are not found", async () => {
    const adapter = await minx();
    expect((await failure(adapter.resolveMedia("gone01"))).kind).toBe("expired");
    expect((await failure(adapter.resolveMedia("404404"))).kind).toBe("expired");
    expect((await failure(adapter.details("404404"))).kind).toBe("not_found");
    expect((await failure(adapter.details("a/b"))).kind).toBe("not_found");
  });

  it("a play page that changed is a layout error, not an expired address", async () => {
    const adapter = await minx((s) => s.route("/play/6a3f9c01", html(page("play-changed-layout.html"))));
    expect((await failure(adapter.resolveMedia("6a3f9c01"))).kind).toBe("layout");
  });
});
