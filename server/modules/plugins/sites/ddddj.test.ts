import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginSandbox } from "../sandbox/host.js";
import { loadSitePlugin, newSandbox, startSite, type FixtureSite, type MediaSource, type SearchResult, type TopListDetail, type TopListGroup } from "./harness.js";
import { signed, route } from "./ddddj.site.js";

/** 清风DJ (ddddj.com): lists of `div.isgood_list` with data-* attributes, 20 a page, signed streams. */

let site: FixtureSite;
let sandbox: PluginSandbox;
const call = <T>(method: string, ...args: unknown[]) => sandbox.call("ddddj.js", method, args) as Promise<T>;

beforeAll(async () => {
  site = await startSite(route);
  sandbox = newSandbox();
  const exports = await loadSitePlugin(sandbox, "ddddj.js", site.baseUrl);
  expect(exports).toMatchObject({ platform: "清风DJ", version: "1.0.0", author: "DJ搜索引擎网", supportedSearchType: ["music"] });
});
afterAll(async () => {
  await sandbox.close();
  await site.close();
});

describe("清风DJ plugin (plugins/ddddj.js)", () => {
  it("searches with keys and page, reads the data-* attributes, and pages by 20", async () => {
    const first = await call<SearchResult>("search", "夜店", 1, "music");
    expect(first.isEnd).toBe(false);
    expect(first.data).toHaveLength(20);
    expect(first.data[0]).toMatchObject({ id: "50001", platform: "清风DJ", title: "DJ阿福 - 夜店s1(Club Mix 2026)", artist: "DJ阿福", artwork: "https://img.ddddj.com/cover/50001.jpg", audio: signed("50001") });
    const request = site.requests.find((r) => r.path === "/search.html")!;
    expect(request.query.get("keys")).toBe("夜店");
    expect(request.query.get("page")).toBe("1");
    expect(request.headers["user-agent"]).toMatch(/^Mozilla\//);

    const last = await call<SearchResult>("search", "夜店", 2, "music");
    expect(last.isEnd).toBe(true);
    expect(last.data.map((i) => i.id)).toEqual(["50021", "50022", "50099"]);
    // No data-artist: the artist is split off the `歌手 - 歌名` name.
    expect(last.data[2]).toMatchObject({ title: "不再犹豫(DJ版)", artist: "小阳" });
  });

  it("hands the signed stream on whole, reads the play page when a list gave none, and gives the unsigned /down/ file for 320k", async () => {
    const [item] = (await call<SearchResult>("search", "夜店", 1, "music")).data;
    expect(await call<MediaSource>("getMediaSource", item, "standard")).toEqual({ url: signed("50001") });
    expect(await call<MediaSource>("getMediaSource", item, "320k")).toEqual({ url: "https://pan.urlkj.com/down/20261001/50001.mp3", quality: "320k" });
    const bare = (await call<SearchResult>("search", "夜店", 2, "music")).data[2];
    expect(await call<MediaSource>("getMediaSource", bare, "standard")).toEqual({ url: "https://pan.urlkj.com/play/20261002/50099.mp3?t=1790000001&sign=cafe" });
  });

  it("lists ranks and genres and reads a rank page by page", async () => {
    const groups = await call<TopListGroup[]>("getTopLists");
    expect(groups.map((g) => g.title)).toEqual(["榜单", "分类"]);
    expect(groups[0].data).toContainEqual({ id: "rank_2", title: "独家中文" });
    expect(groups[1].data).toContainEqual({ id: "genre_mycs", title: "慢摇串烧" });

    const first = await call<TopListDetail>("getTopListDetail", { id: "rank_2", title: "独家中文" }, 1);
    expect(first).toMatchObject({ isEnd: false, topListItem: { id: "rank_2" } });
    expect(first.musicList).toHaveLength(20);
    expect(first.musicList[0]).toMatchObject({ id: "60001", title: "DJ阿福 - 夜店r1(Club Mix 2026)", artist: "DJ阿福" });
    const second = await call<TopListDetail>("getTopListDetail", { id: "rank_2", title: "独家中文" }, 2);
    expect(second.isEnd).toBe(true);
    expect(second.musicList.map((i) => i.id)).toEqual(["60021", "60022", "60023", "60024", "60025"]);

    const genre = await call<TopListDetail>("getTopListDetail", { id: "genre_mycs", title: "慢摇串烧" }, 1);
    expect(genre.isEnd).toBe(true);
    expect(genre.musicList).toHaveLength(7);
  });
});
