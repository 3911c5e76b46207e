import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginSandbox } from "../sandbox/host.js";
import { loadSitePlugin, newSandbox, startSite, type FixtureSite, type MediaSource, type SearchResult, type TopListDetail, type TopListGroup } from "./harness.js";
import { row, page, route } from "./djkk.site.js";

/** DJKK (pc.djkk.cn, a CSCms site): `li` rows with /dance/{id}.html links, a JSON player answer. */

let site: FixtureSite;
let sandbox: PluginSandbox;
const call = <T>(method: string, ...args: unknown[]) => sandbox.call("djkk.js", method, args) as Promise<T>;

beforeAll(async () => {
  site = await startSite(route);
  sandbox = newSandbox();
  expect(await loadSitePlugin(sandbox, "djkk.js", site.baseUrl)).toMatchObject({ platform: "DJKK", version: "1.0.0", author: "DJ搜索引擎网", supportedSearchType: ["music"] });
});
afterAll(async () => {
  await sandbox.close();
  await site.close();
});

describe("DJKK plugin (plugins/djkk.js)", () => {
  it("searches, takes each row's /dance/{id}.html link (not its category link), splits 歌手 - 歌名 and pages by #pages data-size", async () => {
    const first = await call<SearchResult>("search", "情人桥", 1, "music");
    expect(first.isEnd).toBe(false);
    expect(first.data).toHaveLength(34);
    expect(first.data[0]).toEqual({ id: "1000", platform: "DJKK", title: "情人桥 Remix 1000", artist: "DJ小贝" });
    const last = await call<SearchResult>("search", "情人桥", 2, "music");
    expect(last.isEnd).toBe(true);
    expect(last.data.map((i) => i.id)).toEqual(["1034", "1035", "1036"]);
    expect(site.requests.find((r) => r.path === "/dance/search.html")!.query.get("page")).toBe("1");
  });

  it("asks the player endpoint by POST with the song page as Referer and plays with the site as Referer", async () => {
    const media = await call<MediaSource>("getMediaSource", { id: "1000", platform: "DJKK", title: "情人桥", artist: "DJ小贝" }, "standard");
    expect(media).toMatchObject({ url: "https://cdn.pgdjz.fun/dance/2026/10/1000.m4a?auth_key=1790000000-0-0-abc", headers: { Referer: `${site.baseUrl}/` }, quality: "64k" });
    const post = site.requests.find((r) => r.path === "/ajax/danceplayer")!;
    expect(Object.fromEntries(new URLSearchParams(post.body))).toEqual({ id: "1000", ids: "", historyid: "" });
  });

  it("fails the play when the site refuses", async () => {
    await expect(call("getMediaSource", { id: "../x" }, "standard")).rejects.toThrow(/DJKK: no playurl/);
    await expect(call("getMediaSource", { id: "777" }, "standard")).rejects.toThrow(/DJKK: no playurl/);
  });

  it("reads the cover and the duration from the song page", async () => {
    expect(await call("getMusicInfo", { id: "1000" })).toEqual({ artwork: "https://img.djkk.cn/cover/1000.jpg", duration: 3723 });
  });

  it("lists the home page's five charts and the categories; a chart is its tab, a category pages", async () => {
    const groups = await call<TopListGroup[]>("getTopLists");
    expect(groups[0].data.map((d) => d.title)).toEqual(["推荐歌曲", "最新歌曲", "热门歌曲", "热门收藏", "下载排行"]);
    expect(groups[1].data).toContainEqual({ id: "cat_63", title: "中文串烧" });

    const hot = await call<TopListDetail>("getTopListDetail", groups[0].data[2], 1);
    expect(hot).toMatchObject({ isEnd: true, topListItem: { id: "home_2" } });
    expect(hot.musicList).toEqual([
      { id: "902", platform: "DJKK", title: "榜单歌曲2", artist: "DJ榜2" },
      { id: "912", platform: "DJKK", title: "榜单单曲2", artist: "DJKK" },
    ]);

    const first = await call<TopListDetail>("getTopListDetail", { id: "cat_63", title: "中文串烧" }, 1);
    expect(first.isEnd).toBe(false);
    expect(first.musicList).toHaveLength(30);
    const second = await call<TopListDetail>("getTopListDetail", { id: "cat_63", title: "中文串烧" }, 2);
    expect(second.isEnd).toBe(true);
    expect(second.musicList.map((i) => i.id)).toEqual(["2030", "2031", "2032", "2033"]);
  });
});
