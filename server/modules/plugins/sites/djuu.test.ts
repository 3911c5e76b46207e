import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginSandbox } from "../sandbox/host.js";
import { newSandbox, pluginCode, startSite, type FixtureSite, type MediaSource, type SearchResult, type SiteRequest, type TopListDetail, type TopListGroup } from "./harness.js";

/** DJ呦呦 (djuu): the app's JSON API {code, msg, data: {list, total}} first, the web play page as the fallback. */

const song = (id: number, title: string) => ({ id, title, coverImgShow: `https://img.djuu.com/cover/${id}.jpg`, duration: 245, hits_num: 10, size: "3.7M", create_time: "2026-10-01" });
const envelope = (data: unknown, code = 1) => JSON.stringify({ code, msg: code === 1 ? "success" : "失败", time: 1790000000, data });

function route(req: SiteRequest) {
  const json = (body: string) => ({ headers: { "content-type": "application/json" }, body });
  if (req.path.startsWith("/app/v1/") && (req.headers.accept !== "application/json" || !String(req.headers["user-agent"]).endsWith("com.djuu.player"))) return json(envelope(null, 0));
  if (req.path === "/app/v1/music/search" && req.query.get("keywords") === "酒吧") {
    const page = Number(req.query.get("page"));
    const rows = Number(req.query.get("row"));
    const list = page === 1 ? Array.from({ length: rows }, (_, i) => song(300 + i, `DJ小可 - 酒吧慢摇 ${i}`)) : [song(399, "酒吧串烧 无歌手")];
    // The second page comes JSON-encoded twice, as a gateway sometimes sends it.
    const body = envelope({ list, total: rows + 1 });
    return json(page === 1 ? body : JSON.stringify(body));
  }
  if (req.path === "/app/v1/music/listen") {
    if (req.query.get("id") === "300") return json(envelope({ listenurl: "https://mp4.djuu.com/c4/22/2026/300abc.m4a", vipListenUrl: "" }));
    return json(envelope(null, 0));
  }
  if (req.path === "/app/v1/music/playRankings" && req.query.get("rankType") === "1") {
    const page = Number(req.query.get("page"));
    const list = page === 1 ? Array.from({ length: 30 }, (_, i) => song(500 + i, `DJ阿本 - 热门 ${i}`)) : Array.from({ length: 15 }, (_, i) => song(530 + i, `DJ阿本 - 热门 ${30 + i}`));
    return json(envelope({ list, total: 45 }));
  }
  if (req.path === "/play/301.html") {
    return { body: `<html><head><title>酒吧慢摇 1</title></head><body><h1>DJ小可 - 酒吧慢摇 1</h1><script>var music = {id:301, name:'DJ小可 - 酒吧慢摇 1', cover:'x.jpg', file:'c4/23/2026/301def', size:'3.6M'};</script></body></html>` };
  }
  return undefined;
}

let site: FixtureSite;
let sandbox: PluginSandbox;
const call = <T>(method: string, ...args: unknown[]) => sandbox.call("djuu.js", method, args) as Promise<T>;

beforeAll(async () => {
  site = await startSite(route);
  sandbox = newSandbox();
  const loaded = await sandbox.load("djuu.js", pluginCode("djuu.js"), { baseUrl: `${site.baseUrl}/app/v1`, webUrl: site.baseUrl });
  expect(loaded.exports).toMatchObject({ platform: "DJ呦呦", version: "1.0.0", author: "DJ搜索引擎网", supportedSearchType: ["music"] });
});
afterAll(async () => {
  await sandbox.close();
  await site.close();
});

describe("DJ呦呦 plugin (plugins/djuu.js)", () => {
  it("searches the app API, splits 歌手 - 标题, pages by total, and unwraps a twice-encoded answer", async () => {
    const first = await call<SearchResult>("search", "酒吧", 1, "music");
    expect(first.isEnd).toBe(false);
    expect(first.data).toHaveLength(20);
    expect(first.data[0]).toEqual({ id: "300", platform: "DJ呦呦", title: "酒吧慢摇 0", artist: "DJ小可", artwork: "https://img.djuu.com/cover/300.jpg", duration: 245 });
    const last = await call<SearchResult>("search", "酒吧", 2, "music");
    expect(last.isEnd).toBe(true);
    expect(last.data).toEqual([expect.objectContaining({ id: "399", title: "酒吧串烧 无歌手", artist: "DJ呦呦" })]);
  });

  it("plays the API's listenurl, and falls back to the play page's file on the media host", async () => {
    expect(await call<MediaSource>("getMediaSource", { id: "300" }, "standard")).toEqual({ url: "https://mp4.djuu.com/c4/22/2026/300abc.m4a", quality: "64k" });
    expect(await call<MediaSource>("getMediaSource", { id: "301" }, "standard")).toEqual({ url: "https://mp4.djuu.com/c4/23/2026/301def.m4a", quality: "64k" });
    await expect(call("getMediaSource", { id: "302" }, "standard")).rejects.toThrow(/status code 404/);
  });

  it("lists the play rankings and pages one by total", async () => {
    const [group] = await call<TopListGroup[]>("getTopLists");
    expect(group.data).toEqual([{ id: "1", title: "热门榜" }, { id: "2", title: "推荐榜" }]);
    const first = await call<TopListDetail>("getTopListDetail", group.data[0], 1);
    expect(first).toMatchObject({ isEnd: false, topListItem: { id: "1" } });
    expect(first.musicList[0]).toMatchObject({ id: "500", title: "热门 0", artist: "DJ阿本" });
    const second = await call<TopListDetail>("getTopListDetail", group.data[0], 2);
    expect(second.isEnd).toBe(true);
    expect(second.musicList).toHaveLength(15);
  });
});
