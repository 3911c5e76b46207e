import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../../../testing/log-capture.js";
import { html, json, resetMidBody, startFixtureSite, status, withLatency, type FixtureSite } from "../../../testing/fixture-site.js";
import { createSourceFetcher } from "../fetch/client.js";
import { SourceError } from "../types.js";
import { createDjuuAdapter } from "./djuu.js";
import { DJUU_APP_USER_AGENT, DJUU_SEARCH_ROWS, readApiJson } from "./djuu-api.js";
import {
  API_DETAILS_ANSWER,
  API_SEARCH_ANSWER,
  CATEGORY_PAGES,
  categoryPage,
  changedLayoutPage,
  malformedSearchPage,
  olderSearchPage,
  playPage,
  rankingAnswer,
  serveDjuu,
  serveDjuuApi,
} from "./djuu.fixtures.js";

let site: FixtureSite;
const sites: FixtureSite[] = [];
const closers: (() => void)[] = [];
afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

/** A djuu on a fixture server; `override` registers routes that win over today's pages. */
async function djuu(override: (site: FixtureSite) => void = () => {}, timeoutMs = 2_000, apiRestMs?: number) {
  site = await startFixtureSite();
  sites.push(site);
  override(site);
  serveDjuu(site);
  const fetcher = createSourceFetcher({
    source: "djuu",
    allowedHosts: [site.host],
    allowAddresses: [site.host],
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: captureLog().logger,
    minIntervalMs: 0,
    timeoutMs,
  });
  closers.push(() => fetcher.close());
  return createDjuuAdapter({ fetcher, baseUrl: site.url, apiBaseUrl: `${site.url}/app/v1`, mediaBaseUrl: "https://mp4.djuu.com", ...(apiRestMs !== undefined ? { apiRestMs } : {}) });
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

describe("djuu: search on the web pages (the fixture's app API has no search: 404)", () => {
  it("finds items for a Chinese keyword (URL-encoded), relative and absolute links alike", async () => {
    const adapter = await djuu();
    const page = await adapter.search(search("夜曲"));
    expect(site.hits.map((h) => h.path)).toEqual(["/app/v1/music/search", "/search"]);
    expect(site.hits[1]!.url).toBe("/search?musicname=%E5%A4%9C%E6%9B%B2&cid=0&list=1&page=1");
    expect(page.hasMore).toBe(true);
    expect(page.items.map((i) => [i.sourceId, i.artist, i.title, i.kind, i.position])).toEqual([
      ["201001", "周杰伦", "夜曲(DJ阿福 Electro Rmx 2025 粤语)", "single", 1],
      ["201002", null, "南宁DJ小鱼-全中文国粤语Club音乐夜曲串烧", "mix", 2],
      ["201003", "陈奕迅", "夜曲一首(DJ小强 Remix)", "single", 3],
    ]);
    expect(page.items[0]).toMatchObject({ source: "djuu", url: `${site.url}/play/201001.html`, cover: `${site.url}/upload/cover/201001.jpg`, playtype: "mp3" });
    expect(page.items[1]!.url).toBe(`${site.url}/play/201002.html`); // absolute on the page, our canonical address
    expect(page.items[1]!.cover).toBe("https://img.djuu.com/cover/201002.jpg");
    expect(page.items[1]!.raw).toMatchObject({ href: "https://www.djuu.com/play/201002.html", title: "【DJUU独家】南宁DJ小鱼-全中文国粤语Club音乐夜曲串烧" });
  });

  it("reads the next page and sees it is the last", async () => {
    const adapter = await djuu();
    const page = await adapter.search(search("夜曲", 2));
    expect(page.items.map((i) => i.sourceId)).toEqual(["201004"]);
    expect(page.hasMore).toBe(false);
  });

  it("answers an empty page when the site found nothing (its list is there, with no rows)", async () => {
    const adapter = await djuu();
    expect(await adapter.search(search("没有这首歌"))).toEqual({ items: [], hasMore: false });
  });

  it("filters by kind, and answers no video (djuu has audio only) without asking the site", async () => {
    const adapter = await djuu();
    expect((await adapter.search({ ...search("夜曲"), kind: "mix" })).items.map((i) => i.sourceId)).toEqual(["201002"]);
    const hits = site.hits.length;
    expect(await adapter.search({ ...search("夜曲"), type: "mp4" })).toEqual({ items: [], hasMore: false });
    expect(site.hits).toHaveLength(hits);
  });

  it("reads the older layout (tr.sbg rows in .list_musiclist, titles as link text)", async () => {
    const adapter = await djuu((s) => s.route("/search", html(olderSearchPage())));
    const page = await adapter.search(search("夜曲"));
    expect(page.items.map((i) => i.sourceId)).toEqual(["201001", "201002", "201003"]);
    expect(page.items[0]!.artist).toBe("周杰伦");
    expect(page.items[0]!.raw.cells).toEqual(["", "周杰伦 - 夜曲(DJ阿福 Electro Rmx 2025 粤语)", "2026/10/01"]);
  });

  it("reports a changed layout as a source error, never as no results", async () => {
    const adapter = await djuu((s) => s.route("/search", html(changedLayoutPage())));
    expect((await failure(adapter.search(search("夜曲")))).kind).toBe("layout");
  });

  it("still reads malformed HTML (unclosed tags)", async () => {
    const adapter = await djuu((s) => s.route("/search", html(malformedSearchPage())));
    const page = await adapter.search(search("夜曲"));
    expect(page.items.map((i) => [i.sourceId, i.title])).toEqual([
      ["201001", "夜曲(DJ阿福 Rmx)"],
      ["201002", "DJ小鱼-夜曲串烧"],
    ]);
    expect(page.hasMore).toBe(true);
  });

  it("reports a slow site as a timeout", async () => {
    const adapter = await djuu((s) => s.route("/search", withLatency(1_000, html("<p>late</p>"))), 150);
    expect((await failure(adapter.search(search("夜曲")))).kind).toBe("timeout");
  });

  it("reports a connection reset mid-body as a network error", async () => {
    const adapter = await djuu((s) => s.route("/search", resetMidBody()));
    expect((await failure(adapter.search(search("夜曲")))).kind).toBe("network");
  });

  it("reports the site refusing us as blocked", async () => {
    const adapter = await djuu((s) => s.route("/search", status(403, "Forbidden")));
    expect((await failure(adapter.search(search("夜曲")))).kind).toBe("blocked");
  });
});

describe("djuu: categories and charts", () => {
  it("lists a category page (div.isgood_list shape) from the web pages, never the app API", async () => {
    const adapter = await djuu();
    const first = await adapter.listCategory("2", 1);
    expect(site.hits.map((h) => h.path)).toEqual(["/djlist/2_1.html"]);
    expect(first.items.map((i) => [i.sourceId, i.title, i.kind])).toEqual([
      ["301001", "DJ1号-慢摇串烧 第1页", "mix"],
      ["301002", "DJ2号-慢摇串烧 第1页", "mix"],
    ]);
  });

  it("pages a category: page N asked as {cid}_{N}, the next one linked as {cid}_{x}_{N+1}", async () => {
    const adapter = await djuu();
    const pages = [];
    for (let page = 1; page <= CATEGORY_PAGES; page += 1) pages.push(await adapter.listCategory("2", page));
    expect(site.hits.map((h) => h.path)).toEqual(["/djlist/2_1.html", "/djlist/2_2.html", "/djlist/2_3.html"]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(pages.map((p) => p.items[0]!.sourceId)).toEqual(["301001", "302001", "303001"]);
  });

  it("another category's link or the last page's own link is not a next page", async () => {
    // Page 4 of another category, or a link to the last page itself, is not a next page.
    const last = categoryPage("2", 3, false).replace("</body>", `<a href="/djlist/12_1_4.html">喊麦串烧</a><a href="/djlist/2_1_3.html">3</a></body>`);
    const other = await djuu((s) => s.route("/djlist/2_3.html", html(last)));
    expect((await other.listCategory("2", 3)).hasMore).toBe(false);
  });

  it("lists a chart from the app API: period mapped to rankType, kind filtered, the site's rank and fields kept", async () => {
    const adapter = await djuu();
    const singles = await adapter.listChart({ period: "week", kind: "single" });
    expect(site.hits.at(-1)!.url).toBe("/app/v1/music/playRankings?rankType=1");
    expect(site.hits.at(-1)!.headers.accept).toBe("application/json");
    expect(singles.items.map((i) => [i.sourceId, i.artist, i.title, i.duration, i.sizeBytes, i.position])).toEqual([
      ["502", "周杰伦", "夜曲(DJ阿福 Rmx)", 252, 2_100_000, 2],
      ["503", "林俊杰", "江南(DJ何鹏 Remix)", 241, 1_900_000, 3],
    ]);
    expect(singles.items[0]!.raw).toEqual(rankingAnswer.data.list[1]);
    expect(singles.items[1]!.cover).toBeNull();
    const mixes = await adapter.listChart({ period: "month", kind: "mix" });
    expect(site.hits.at(-1)!.url).toBe("/app/v1/music/playRankings?rankType=2");
    expect(mixes.items.map((i) => [i.sourceId, i.kind, i.duration])).toEqual([["501", "mix", 3720]]);
  });

  it("treats an app API envelope with a code other than 1 as an error", async () => {
    const adapter = await djuu((s) => s.route("/app/v1/music/playRankings", json({ code: 0, msg: "系统繁忙", data: null })));
    const error = await failure(adapter.listChart({ period: "day", kind: "mix" }));
    expect(error.kind).toBe("http");
    expect(error.message).toContain("系统繁忙");
  });

  it("treats an answer that is not JSON, or not the known list, as a changed layout", async () => {
    const adapter = await djuu((s) =>
      s.route("/app/v1/music/playRankings", (req, res, match) =>
        (req.url ?? "").includes("rankType=1") ? html("<html>维护中</html>")(req, res, match) : json({ code: 1, data: { items: [] } })(req, res, match),
      ),
    );
    expect((await failure(adapter.listChart({ period: "day", kind: "mix" }))).kind).toBe("layout");
    expect((await failure(adapter.listChart({ period: "month", kind: "mix" }))).kind).toBe("layout");
  });
});

describe("djuu: details and media", () => {
  it("reads a play page: heading, the music script in any field order, cover", async () => {
    const adapter = await djuu();
    const details = await adapter.details("201001");
    expect(details).toMatchObject({
      sourceId: "201001",
      url: `${site.url}/play/201001.html`,
      artist: "周杰伦",
      title: "夜曲(DJ阿福 Electro Rmx 2025 粤语)",
      cover: `${site.url}/upload/cover/201001.jpg`,
      duration: 252,
      kind: "single",
      tracklist: [],
    });
    expect(details.raw.music).toEqual({ file: "c4/22/2026/ab12cd34", name: "周杰伦 - 夜曲(DJ阿福 Electro Rmx 2025 粤语)", id: "201001", duration: "04:12", uid: "8" });
  });

  it("answers not found for a play page that is gone", async () => {
    const adapter = await djuu();
    expect((await failure(adapter.details("404404"))).kind).toBe("not_found");
  });

  it("resolves the playable address through the app API's listenurl", async () => {
    const adapter = await djuu();
    expect(await adapter.resolveMedia("201001")).toEqual({ url: "https://mp4.djuu.com/c4/22/2026/201001.m4a?t=1795000000", headers: {}, format: "m4a" });
  });

  it("falls back to the play page's file when the API gives no address (a path, or a full address as is)", async () => {
    const adapter = await djuu((s) =>
      s
        .route("/app/v1/music/listen", json({ code: 1, data: { listenurl: "", vipListenUrl: "" } }))
        .route("/play/201009.html", html(playPage("201009", { file: "https://cdn.djuu.com/x/201009.m4a" }))),
    );
    expect((await adapter.resolveMedia("201001")).url).toBe("https://mp4.djuu.com/c4/22/2026/ab12cd34.m4a");
    expect((await adapter.resolveMedia("201009")).url).toBe("https://cdn.djuu.com/x/201009.m4a");
  });

  it("reports an expired address: no listenurl and the play page gone, or the API 404 and no file", async () => {
    const adapter = await djuu((s) =>
      s
        .route("/app/v1/music/listen", (req, res, match) =>
          (req.url ?? "").includes("404404") ? json({ code: 1, data: { listenurl: null } })(req, res, match) : status(404)(req, res, match),
        )
        .route("/play/201007.html", html(playPage("201007", { file: "" }))),
    );
    expect((await failure(adapter.resolveMedia("404404"))).kind).toBe("expired");
    expect((await failure(adapter.resolveMedia("201007"))).kind).toBe("expired");
  });
});

describe("djuu: the app API first, the web pages when it fails", () => {
  it("searches through the API as its app does: keywords, page, row, the app's User-Agent and JSON; an answer encoded twice is read", async () => {
    const adapter = await djuu(serveDjuuApi);
    const first = await adapter.search(search("夜曲"));
    expect(site.hits.map((h) => h.url)).toEqual([`/app/v1/music/search?keywords=%E5%A4%9C%E6%9B%B2&page=1&row=${DJUU_SEARCH_ROWS}`]);
    expect(site.hits[0]!.headers).toMatchObject({ "user-agent": DJUU_APP_USER_AGENT, accept: "application/json" });
    expect(DJUU_APP_USER_AGENT).toMatch(/^Mozilla\/5\.0 \(Linux; Android .* com\.djuu\.player$/u);
    expect(first).toMatchObject({ hasMore: true, total: 25 });
    expect(first.items.map((i) => [i.sourceId, i.artist, i.title, i.duration, i.sizeBytes, i.kind, i.position, i.url])).toEqual([
      ["201001", "周杰伦", "夜曲(DJ阿福 Electro Rmx 2025 粤语)", 252, 2_100_000, "single", 1, `${site.url}/play/201001.html`],
      ["201002", null, "南宁DJ小鱼-全中文国粤语Club音乐夜曲串烧", 3720, 120_000_000, "mix", 2, `${site.url}/play/201002.html`],
    ]);
    expect(first.items[0]!.raw).toEqual(API_SEARCH_ANSWER.data.list[0]);
    expect((await adapter.search(search("夜曲", 2))).hasMore).toBe(false);
    expect(await adapter.search(search("没有这首歌"))).toEqual({ items: [], hasMore: false, total: 0 });
    expect(site.hits.every((h) => h.path.startsWith("/app/v1/"))).toBe(true);
  });

  it.each([
    ["down (connection reset)", resetMidBody()],
    ["an error code", json({ code: 0, msg: "系统繁忙", data: null })],
    ["an answer that is not JSON", html("<html>502 Bad Gateway</html>")],
    ["an envelope of another shape", json({ code: 1, data: { items: [] } })],
    ["a 500", status(500, "Internal Server Error")],
  ])("falls back to the web pages when the API is %s", async (_why, failing) => {
    const adapter = await djuu((s) => s.route("/app/v1/music/search", failing));
    const page = await adapter.search(search("夜曲"));
    expect(site.hits.map((h) => h.path)).toEqual(["/app/v1/music/search", "/search"]);
    expect(page.items.map((i) => i.sourceId)).toEqual(["201001", "201002", "201003"]);
    expect(page.hasMore).toBe(true);
  });

  it("an API channel that is gone (404) rests: the next searches ask the web pages alone, then the API again", async () => {
    // The rest outlasts the two searches and the address below even on a busy machine (300 ms did not).
    const adapter = await djuu(() => {}, 2_000, 1_500);
    await adapter.search(search("夜曲"));
    await adapter.search(search("夜曲", 2));
    expect(site.hits.map((h) => h.path)).toEqual(["/app/v1/music/search", "/search", "/search"]);
    // Another channel of the same API is not put to rest by the search channel's 404.
    expect((await adapter.resolveMedia("201001")).url).toBe("https://mp4.djuu.com/c4/22/2026/201001.m4a?t=1795000000");
    await new Promise((r) => setTimeout(r, 1_520));
    await adapter.search(search("夜曲"));
    expect(site.hits.slice(-2).map((h) => h.path)).toEqual(["/app/v1/music/search", "/search"]);
  });

  it.each([
    ["refusing one song", json({ code: -1, msg: "请登录" })],
    ["failing (a 503)", status(503)],
  ])("an API %s does not rest the channel: the next play asks it again", async (_why, answer) => {
    const adapter = await djuu((s) => s.route("/app/v1/music/listen", answer));
    await adapter.resolveMedia("201001");
    await adapter.resolveMedia("201001");
    expect(site.hits.map((h) => h.path)).toEqual(["/app/v1/music/listen", "/play/201001.html", "/app/v1/music/listen", "/play/201001.html"]);
  });

  it("the web pages failing too is the source's error", async () => {
    const adapter = await djuu((s) => s.route("/app/v1/music/search", status(500)).route("/search", status(403)));
    expect((await failure(adapter.search(search("夜曲")))).kind).toBe("blocked");
  });

  it("reads details from the API, else from the play page", async () => {
    const adapter = await djuu(serveDjuuApi);
    const details = await adapter.details("201001");
    expect(site.hits.map((h) => h.url)).toEqual(["/app/v1/music/details?id=201001"]);
    expect(site.hits[0]!.headers["user-agent"]).toBe(DJUU_APP_USER_AGENT);
    expect(details).toMatchObject({ sourceId: "201001", artist: "周杰伦", title: "夜曲(DJ阿福 Electro Rmx 2025 粤语)", duration: 252, sizeBytes: 2_100_000, cover: "https://img.djuu.com/c/201001.jpg", tracklist: [] });
    expect(details.raw).toEqual(API_DETAILS_ANSWER.data);
    // The API answering another song, or failing: the play page.
    expect((await adapter.details("201005")).raw).toMatchObject({ music: { id: "201005" } });
    expect(site.hits.slice(1).map((h) => h.path)).toEqual(["/app/v1/music/details", "/play/201005.html"]);
  });

  it("the play page's title comes from its music script before the <h1>", async () => {
    const adapter = await djuu((s) => s.route("/play/201001.html", html(playPage("201001", { heading: "DJ呦呦 - 在线试听" }))));
    expect(await adapter.details("201001")).toMatchObject({ artist: "周杰伦", title: "夜曲(DJ阿福 Electro Rmx 2025 粤语)" });
    const noScript = playPage("201002").replace(/var music = \{[^}]*\};/u, "");
    const headingOnly = await djuu((s) => s.route("/play/201002.html", html(noScript)));
    expect((await headingOnly.details("201002")).title).toBe("夜曲(DJ阿福 Electro Rmx 2025 粤语)");
  });

  it("plays the API's listenurl; the API down or refusing falls back to the play page's file", async () => {
    const adapter = await djuu();
    expect((await adapter.resolveMedia("201001")).url).toBe("https://mp4.djuu.com/c4/22/2026/201001.m4a?t=1795000000");
    expect(site.hits.at(-1)!.headers).toMatchObject({ "user-agent": DJUU_APP_USER_AGENT, accept: "application/json" });
    for (const failing of [resetMidBody(), status(403), json({ code: -1, msg: "请登录" })]) {
      const fallback = await djuu((s) => s.route("/app/v1/music/listen", failing));
      expect(await fallback.resolveMedia("201001")).toEqual({ url: "https://mp4.djuu.com/c4/22/2026/ab12cd34.m4a", headers: {}, format: "m4a" });
      expect(site.hits.map((h) => h.path)).toEqual(["/app/v1/music/listen", "/play/201001.html"]);
    }
  });

  it("reads an answer encoded twice, and no further", () => {
    const answer = { code: 1, data: { list: [] } };
    expect(readApiJson(JSON.stringify(answer))).toEqual(answer);
    expect(readApiJson(JSON.stringify(JSON.stringify(answer)))).toEqual(answer);
    expect(typeof readApiJson(JSON.stringify(JSON.stringify(JSON.stringify(answer))))).toBe("string");
    expect(readApiJson("<html>")).toBeUndefined();
  });
});
