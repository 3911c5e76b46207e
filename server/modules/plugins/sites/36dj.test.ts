import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginSandbox } from "../sandbox/host.js";
import { loadSitePlugin, newSandbox, startSite, type FixtureSite, type MediaSource, type SearchResult, type TopListDetail, type TopListGroup } from "./harness.js";
import { route } from "./36dj.site.js";

/** 36DJ (Empire CMS): `li` rows with input[name=check], search by POST, `var info = {"playurl": …}`. */

let site: FixtureSite;
let sandbox: PluginSandbox;
const call = <T>(method: string, ...args: unknown[]) => sandbox.call("36dj.js", method, args) as Promise<T>;

beforeAll(async () => {
  site = await startSite(route);
  sandbox = newSandbox();
  expect(await loadSitePlugin(sandbox, "36dj.js", site.baseUrl)).toMatchObject({ platform: "36DJ", version: "1.0.0", author: "DJ搜索引擎网", supportedSearchType: ["music"] });
});
afterAll(async () => {
  await sandbox.close();
  await site.close();
});

describe("36DJ plugin (plugins/36dj.js)", () => {
  it("searches by POSTing the Empire CMS form, once per song, splitting 歌手 - 歌名", async () => {
    const found = await call<SearchResult>("search", "说散就散", 1, "music");
    expect(found.isEnd).toBe(true);
    expect(found.data).toEqual([
      { id: "8801", platform: "36DJ", title: "说散就散(ProgHouse 8801)", artist: "DJ阿远" },
      { id: "8802", platform: "36DJ", title: "说散就散(ProgHouse 8802)", artist: "DJ阿远" },
      { id: "8803", platform: "36DJ", title: "说散就散(ProgHouse 8803)", artist: "DJ阿远" },
      { id: "8899", platform: "36DJ", title: "说散就散 慢摇版", artist: "36DJ" },
    ]);
    const post = site.requests.find((r) => r.path === "/e/search/index.php")!;
    expect(post.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(await call<SearchResult>("search", "说散就散", 2, "music")).toEqual({ isEnd: true, data: [] });
  });

  it("reads the play page's playurl and puts it on the media host, with the site as Referer", async () => {
    const media = await call<MediaSource>("getMediaSource", { id: "8801" }, "standard");
    expect(media).toMatchObject({ url: "https://tn1.72djapp.cn/2026/1001/8801.m4a", headers: { Referer: `${site.baseUrl}/` } });
    await expect(call("getMediaSource", { id: "1" }, "standard")).rejects.toThrow(/Request failed with status code 404/);
  });

  it("lists the charts and categories and pages a list until the site's 404", async () => {
    const [group] = await call<TopListGroup[]>("getTopLists");
    expect(group.data).toContainEqual({ id: "/xc/", title: "串烧舞曲" });
    expect(group.data).toContainEqual({ id: "/top/", title: "DJ舞曲榜" });

    const first = await call<TopListDetail>("getTopListDetail", { id: "/xc/", title: "串烧舞曲" }, 1);
    expect(first.isEnd).toBe(false);
    expect(first.musicList).toHaveLength(30);
    expect(first.musicList[0]).toEqual({ id: "7000", platform: "36DJ", title: "说散就散(ProgHouse 7000)", artist: "DJ阿远" });
    const second = await call<TopListDetail>("getTopListDetail", { id: "/xc/", title: "串烧舞曲" }, 2);
    expect(second.isEnd).toBe(true);
    expect(second.musicList.map((i) => i.id)).toEqual(["7030", "7031", "7032", "7033"]);
    expect(await call<TopListDetail>("getTopListDetail", { id: "/xc/", title: "串烧舞曲" }, 3)).toMatchObject({ isEnd: true, musicList: [] });
    await expect(call("getTopListDetail", { id: "http://elsewhere.invalid/", title: "x" }, 1)).rejects.toThrow(/unknown list/);
  });
});
