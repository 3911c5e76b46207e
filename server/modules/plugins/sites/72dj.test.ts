import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginSandbox } from "../sandbox/host.js";
import { loadSitePlugin, newSandbox, startSite, type FixtureSite, type MediaSource, type SearchResult, type TopListDetail, type TopListGroup } from "./harness.js";
import { TOKEN, ANSWER, challenge, chart, route } from "./72dj.site.js";

/**
 * 72DJ舞曲网: GBK pages behind a cookie challenge. The fixture serves a page only to a request
 * carrying r = secret − 100 and t = token; anything else gets the challenge (Set-Cookie secret,
 * token) and a short page. Every page is GBK bytes.
 */

let site: FixtureSite;
let sandbox: PluginSandbox;
const call = <T>(method: string, ...args: unknown[]) => sandbox.call("72dj.js", method, args) as Promise<T>;

beforeAll(async () => {
  site = await startSite(route);
  sandbox = newSandbox();
  expect(await loadSitePlugin(sandbox, "72dj.js", site.baseUrl)).toMatchObject({ platform: "72DJ舞曲网", version: "1.0.0", author: "DJ搜索引擎网", supportedSearchType: ["music"] });
});
afterAll(async () => {
  await sandbox.close();
  await site.close();
});

describe("72DJ舞曲网 plugin (plugins/72dj.js)", () => {
  it("answers the cookie challenge (r = secret − 100, t = token), reloads, and keeps the answer for later pages", async () => {
    const groups = await call<TopListGroup[]>("getTopLists");
    expect(groups).toEqual([{ title: "排行榜", data: [{ id: "/top/", title: "总排行榜" }, { id: "/top/zwwq.htm", title: "中文舞曲榜" }, { id: "/top/cs.htm", title: "串烧舞曲榜" }] }]);
    const [challenged, reloaded] = site.requests;
    expect(challenged.headers.cookie).toBeUndefined();
    expect(reloaded.path).toBe("/top/");
    expect(reloaded.headers.cookie).toContain(`r=${ANSWER}`);
    expect(reloaded.headers.cookie).toContain(`t=${TOKEN}`);
    expect(site.requests).toHaveLength(2);

    await call("getTopListDetail", groups[0].data[1], 1);
    expect(site.requests).toHaveLength(3); // no second challenge
  });

  it("decodes GBK chart pages and splits 歌手 - 歌名", async () => {
    const detail = await call<TopListDetail>("getTopListDetail", { id: "/top/zwwq.htm", title: "中文舞曲榜" }, 1);
    expect(detail).toMatchObject({ isEnd: true, topListItem: { id: "/top/zwwq.htm" } });
    expect(detail.musicList).toEqual([
      { id: "32853", platform: "72DJ舞曲网", title: "一路向北(粤语Remix)", artist: "湛江Dj小帅" },
      { id: "32854", platform: "72DJ舞曲网", title: "夜店慢摇串烧", artist: "DJ阿福" },
      { id: "32855", platform: "72DJ舞曲网", title: "伤感情歌 连版", artist: "72DJ舞曲网" },
    ]);
  });

  it("stays on its own site for a chart named by an absolute address", async () => {
    const detail = await call<TopListDetail>("getTopListDetail", { id: "http://elsewhere.invalid/top/cs.htm", title: "串烧舞曲榜" }, 1);
    expect(detail.musicList.map((i) => i.id)).toEqual(["40001", "32853"]);
  });

  it("searches through the charts, once per song", async () => {
    const found = await call<SearchResult>("search", "一路向北", 1, "music");
    expect(found).toEqual({
      isEnd: true,
      data: [
        { id: "32853", platform: "72DJ舞曲网", title: "一路向北(粤语Remix)", artist: "湛江Dj小帅" },
        { id: "40001", platform: "72DJ舞曲网", title: "一路向北(Electro Mix)", artist: "南宁DJ小龙" },
      ],
    });
    expect((await call<SearchResult>("search", "不存在的歌", 1, "music")).data).toEqual([]);
  });

  it("plays danceFilePath on the media host and reads the name from p_n", async () => {
    const media = await call<MediaSource>("getMediaSource", { id: "32853" }, "standard");
    expect(media).toMatchObject({ url: "https://mp372dj.lianzhixiu.com:37373/m4adj/2016/7201/2602/32853.m4a", headers: { Referer: `${site.baseUrl}/` } });
    expect(await call("getMusicInfo", { id: "32853" })).toEqual({ artist: "湛江Dj小帅", title: "一路向北(粤语Remix)" });
  });

  it("fails a page the challenge does not let through, and a missing page", async () => {
    await expect(call("getMediaSource", { id: "666" }, "standard")).rejects.toThrow(/no danceFilePath/);
    await expect(call("getMediaSource", { id: "404" }, "standard")).rejects.toThrow(/no such page/);
  });
});
