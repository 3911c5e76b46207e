import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SourceError } from "../types.js";
import { blockedSearchError, isBlockedAnswer, minx172Paths, needsAsciiQuery, readMediaObject, readMinxAlbums, readMinxList, readMinxPlayPage, readMinxRank } from "./minx172.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/172minx/${name}`, import.meta.url), "utf8");
const SITE = "https://www.172mix.com";

function layoutError(run: () => unknown): SourceError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SourceError);
    return error as SourceError;
  }
  throw new Error("expected a SourceError");
}

describe("172Mix list pages", () => {
  it("reads a search page: track items only (not the sidebar), titles cleaned, covers from data-src, a next page", () => {
    const page = readMinxList(fixture("search.html"), `${SITE}/searches?query=yequ&page=1`);
    expect(page.hasMore).toBe(true);
    expect(page.items.map((i) => i.sourceId)).toEqual(["6a3f9c01", "6a3f9c02", "5b7e0d11", "4c2d8e77"]);
    const [exclusive, suite, , untitled] = page.items;
    expect(exclusive).toMatchObject({
      source: "172minx",
      url: `${SITE}/play/6a3f9c01`,
      artist: "周杰伦",
      title: "夜曲(DJ阿远 Electro Rmx 2026)",
      cover: "https://img.172mix.com/cover/20261102/6a3f9c01.jpg",
      kind: "single",
      position: 1,
    });
    expect(exclusive.raw.title).toBe("【172Mix独家】周杰伦 - 夜曲(DJ阿远 Electro Rmx 2026)");
    expect(suite).toMatchObject({ artist: null, title: "福州DJ阿远-全中文国粤语Club音乐周杰伦夜曲经典慢摇串烧", kind: "mix", position: 2 });
    // No title attribute: the link text minus the leading button word.
    expect(untitled).toMatchObject({ artist: "蔡健雅", title: "夜曲(DJ细霖 Remix 2024)", position: 4 });
  });

  it("makes relative links (2024 pages) absolute against the page, and sees the last page", () => {
    const page = readMinxList(fixture("genre-csds2-page2.html"), `${SITE}/genre/csds2/page/2`, { siteKind: "mix" });
    expect(page.hasMore).toBe(false);
    expect(page.items.map((i) => [i.sourceId, i.url, i.title])).toEqual([
      ["31415", `${SITE}/play/31415.html`, "南宁DJ细霖-2026全中文国语慢摇串烧《伤感情歌》"],
      ["27182", `${SITE}/play/27182.html`, "深圳DJ小辉-Mashup连续串烧"],
      ["16180", `${SITE}/play/16180.html`, "广州DJ阿强-粤语经典慢摇串烧"],
    ]);
    expect(page.items[0].cover).toBe(`${SITE}/uploads/cover/20260918/31.jpg`);
    expect(page.items[1].cover).toBe(`${SITE}/uploads/cover/20260911/27.jpg`);
    expect(page.items.every((i) => i.kind === "mix")).toBe(true);
  });

  it("ranks never page, even with a next link (every page number answers the same list)", () => {
    const html = fixture("rank-zwphb.html");
    expect(readMinxList(html, `${SITE}/ranks/zwphb`).hasMore).toBe(true);
    const page = readMinxRank(html, `${SITE}${minx172Paths.rank("zwphb")}`);
    expect(page.hasMore).toBe(false);
    expect(page.items.map((i) => [i.position, i.artist])).toEqual([[1, "刀郎"], [2, "王靖雯"], [3, "杨坤"]]);
  });

  it("tells the site's empty answer from a changed layout", () => {
    expect(readMinxList(fixture("search-empty.html"), `${SITE}/searches?query=zzqx`)).toEqual({ items: [], hasMore: false });
    const error = layoutError(() => readMinxList(fixture("search-changed-layout.html"), `${SITE}/searches?query=yequ`));
    expect(error.kind).toBe("layout");
    expect(error.source).toBe("172minx");
    // A page of something else entirely (a captcha wall, an error page) is not "no results" either.
    expect(layoutError(() => readMinxList("<html><body><h1>请输入验证码</h1></body></html>", SITE)).kind).toBe("layout");
    // Track items that lost their play links: changed.
    expect(layoutError(() => readMinxList('<ul class="track-list"><li class="track-item"><a href="/song/1">夜曲</a></li></ul>', SITE)).kind).toBe("layout");
  });

  it("reads malformed HTML (unclosed tags, stray closings, cut short)", () => {
    const page = readMinxList(fixture("search-malformed.html"), `${SITE}/searches?query=dj`);
    expect(page.items.map((i) => [i.sourceId, i.artist, i.title, i.kind])).toEqual([
      ["9a0b1c01", "DJ Snake", "Taki Taki(DJ阿福 Remix)", "single"],
      ["9a0b1c02", "Alan Walker", "Faded(Electro Rmx 2026)", "single"],
      ["9a0b1c03", null, "全英文Mashup MixSet车载串烧", "mix"],
    ]);
    expect(page.items[2].cover).toBe("https://img.172mix.com/cover/9a0b1c03.jpg");
    expect(page.hasMore).toBe(true);
  });

  it("reads album cards: image from data-src or src, image and name links merged, list pages skipped", () => {
    const albums = readMinxAlbums(fixture("albums-order-hot.html"), `${SITE}/album/order-hot`);
    expect(albums.map((a) => [a.sourceId, a.url, a.title, a.cover])).toEqual([
      ["1203", `${SITE}/album/1203`, "2026车载必备慢摇", "https://img.172mix.com/album/1203.jpg"],
      ["988", `${SITE}/album/988`, "越南鼓精选", "https://img.172mix.com/album/988.jpg"],
      ["777", `${SITE}/album/777`, "经典粤语DJ", `${SITE}/uploads/album/777.png`],
    ]);
    expect(layoutError(() => readMinxAlbums(fixture("search-changed-layout.html"), `${SITE}/album/order-hot`)).kind).toBe("layout");
  });
});

describe("172Mix play pages", () => {
  it("reads var media: the address, the title and the Referer", () => {
    const { details, media } = readMinxPlayPage(fixture("play.html"), `${SITE}/play/6a3f9c01`);
    expect(media).toEqual({
      url: "https://mp3.172mix.com/mp3/userdj/20261102/6a3f9c01e5b84d2aa1c07f3e9d1b2c44.m4a",
      headers: { Referer: `${SITE}/` },
      format: "m4a",
    });
    expect(details).toMatchObject({ sourceId: "6a3f9c01", artist: "周杰伦", title: "夜曲(DJ阿远 Electro Rmx 2026)", kind: "single", tracklist: [] });
    expect(details.cover).toBe("https://img.172mix.com/cover/20261102/6a3f9c01.jpg");
    expect(details.raw.pageTitle).toBe("【172Mix独家】周杰伦 - 夜曲(DJ阿远 Electro Rmx 2026)试听,mp3下载 - 172Mix");
  });

  it("reads fields in any order, escaped slashes, extra fields kept in raw", () => {
    const { details, media } = readMinxPlayPage(fixture("play-reordered.html"), `${SITE}/play/6a3f9c02`);
    expect(media.url).toBe("https://mp3.172mix.com/mp3/userdj/20261028/0f9e8d7c6b5a49382716a5b4c3d2e1f0.m4a");
    expect(details).toMatchObject({ sourceId: "6a3f9c02", artist: null, kind: "mix", cover: `${SITE}/uploads/cover/20261028/6a3f9c02.jpg` });
    expect(details.raw.media).toMatchObject({ hits: "18231", pic: "/uploads/cover/20261028/6a3f9c02.jpg" });
  });

  it("a page whose player gets its address directly (setMedia, no var media): the first address on the site's media host, the title from <title>", () => {
    const { details, media } = readMinxPlayPage(fixture("play-setmedia.html"), `${SITE}/play/7b1d2e03`);
    expect(media).toEqual({
      url: "https://mp3.172mix.com/mp3/userdj/20261105/7b1d2e03a4f5468c9d0e1f2a3b4c5d6e.m4a",
      headers: { Referer: `${SITE}/` },
      format: "m4a",
    });
    expect(details).toMatchObject({ sourceId: "7b1d2e03", url: `${SITE}/play/7b1d2e03`, artist: "林俊杰", title: "江南(DJ阿远 ProgHouse Rmx 2026)", kind: "single" });
    expect(details.cover).toBe("https://img.172mix.com/cover/20261105/7b1d2e03.jpg");
    expect(details.raw).toMatchObject({ media: null, player: media.url });
    // An mp3, written with escaped slashes in a script, after other hosts' addresses.
    const mp3 = `<title>DJ小鱼-慢摇串烧试听,mp3下载 - 172Mix</title><script src="https://www.172mix.com/js/a.js"></script>
<script>var cdn = "https://img.172mix.com/x.jpg"; player.setMedia({mp3:"https:\\/\\/mp3.172mix.com\\/mp3\\/userdj\\/20260101\\/abc.mp3?v=2"});</script>`;
    const read = readMinxPlayPage(mp3, `${SITE}/play/abc01`);
    expect(read.media).toMatchObject({ url: "https://mp3.172mix.com/mp3/userdj/20260101/abc.mp3?v=2", format: "mp3" });
    expect(read.details).toMatchObject({ title: "DJ小鱼-慢摇串烧", kind: "mix", sourceId: "abc01" });
  });

  it("a removed track is expired; a page without var media otherwise is a changed layout", () => {
    expect(layoutError(() => readMinxPlayPage(fixture("play-removed.html"), `${SITE}/play/1`)).kind).toBe("expired");
    expect(layoutError(() => readMinxPlayPage(fixture("play-changed-layout.html"), `${SITE}/play/6a3f9c01`)).kind).toBe("layout");
    expect(layoutError(() => readMinxPlayPage('<script>var media = {id:"1", name:"x", src:""};</script>', `${SITE}/play/1`)).kind).toBe("layout");
  });

  it("parses the media object with single quotes and numbers too", () => {
    expect(readMediaObject(`var media = { name: '夜曲 \\'DJ\\'', id: 42, src :"a.m4a" }`)).toEqual({ name: "夜曲 'DJ'", id: "42", src: "a.m4a" });
    expect(readMediaObject("var music = {}")).toBeNull();
  });
});

describe("172Mix addresses", () => {
  it("builds the search, genre, rank and play paths of SOURCES.md", () => {
    expect(minx172Paths.search("ye qu", 2)).toBe("/searches?query=ye%20qu&page=2");
    expect(minx172Paths.genre("csds2", 1)).toBe("/genre/csds2");
    expect(minx172Paths.genre("csds2", 3)).toBe("/genre/csds2/page/3");
    expect(minx172Paths.play("6a3f9c01")).toBe("/play/6a3f9c01");
  });
});

describe("172Mix's firewall", () => {
  it("a 403 to a search is a blocked source, and non-ASCII keywords are the known cause", () => {
    expect(needsAsciiQuery("夜曲")).toBe(true);
    expect(needsAsciiQuery("yequ dj")).toBe(false);
    expect(isBlockedAnswer(403)).toBe(true);
    expect(isBlockedAnswer(200)).toBe(false);
    const error = blockedSearchError("夜曲");
    expect(error).toMatchObject({ source: "172minx", kind: "blocked", status: 403 });
    expect(error.message).toContain("non-ASCII");
  });
});
