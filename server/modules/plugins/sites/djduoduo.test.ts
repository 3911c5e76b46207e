import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginSandbox } from "../sandbox/host.js";
import { loadSitePlugin, newSandbox, startSite, type FixtureSite, type MediaSource, type SearchResult, type TopListDetail, type TopListGroup } from "./harness.js";
import { calls, route } from "./djduoduo.site.js";

/**
 * DJ多多's app API: requests carry AES-128-CBC-encrypted JSON (`data`, `extra`), answers are JSON or
 * AES-encrypted JSON under a second key, and a song's `Path` is encrypted too. The fixture decrypts
 * what the plugin sends with Node's crypto, so a wrong key, IV or field fails here.
 */

let site: FixtureSite;
let sandbox: PluginSandbox;
const call = <T>(method: string, ...args: unknown[]) => sandbox.call("djduoduo.js", method, args) as Promise<T>;

beforeAll(async () => {
  site = await startSite(route);
  sandbox = newSandbox();
  expect(await loadSitePlugin(sandbox, "djduoduo.js", `${site.baseUrl}/v4`)).toMatchObject({ platform: "DJ多多", version: "1.0.0", author: "DJ搜索引擎网", supportedSearchType: ["music"] });
});
afterAll(async () => {
  await sandbox.close();
  await site.close();
});

describe("DJ多多 plugin (plugins/djduoduo.js)", () => {
  it("searches with an encrypted request, reads the encrypted answer and pages by HasMore", async () => {
    const first = await call<SearchResult>("search", "社会摇", 1, "music");
    expect(first.isEnd).toBe(false);
    expect(first.data).toHaveLength(30);
    expect(first.data[1]).toMatchObject({ id: "1234501", platform: "DJ多多", title: "社会摇 1", artist: "DJ小鱼儿", artwork: "http://txcdn.dianyinduoduo.com/dj/cover/501/500/1234501.jpg", duration: 232 });
    expect(calls[0]).toMatchObject({ act: "sch", data: { Query: "社会摇", From: "Search", Uid: 0, PageNo: 0 }, extra: { VerCode: 5568, Platform: "Android", AppId: 120 } });

    const last = await call<SearchResult>("search", "社会摇", 2, "music");
    expect(last.isEnd).toBe(true);
    expect(last.data).toEqual([expect.objectContaining({ id: "1234599", artist: "DJ多多" })]);
    expect(calls.at(-1)!.data.PageNo).toBe(1);
  });

  it("plays the decrypted Path under the stream host, from the search item or from the detail call", async () => {
    const [, item] = (await call<SearchResult>("search", "社会摇", 1, "music")).data;
    expect(await call<MediaSource>("getMediaSource", item, "standard")).toEqual({ url: "http://bdcdn.djduoduo.com/dj/501/1234501_a1b2.aac", quality: "64k" });
    const before = calls.length;
    expect(await call<MediaSource>("getMediaSource", { id: "1234501", platform: "DJ多多", title: "社会摇 1", artist: "DJ小鱼儿" }, "standard")).toEqual({ url: "http://bdcdn.djduoduo.com/dj/501/1234501_a1b2.aac", quality: "64k" });
    expect(calls.slice(before).map((c) => c.act)).toEqual(["detail"]);
  });

  it("reports the API's refusal", async () => {
    await expect(call("getMediaSource", { id: "42" }, "standard")).rejects.toThrow(/detail RetCode 401 参数错误/);
  });

  it("lists the eight charts with covers and pages a chart", async () => {
    const [group] = await call<TopListGroup[]>("getTopLists");
    expect(group.data).toHaveLength(8);
    expect(group.data).toContainEqual({ id: "107", title: "中文舞曲榜", coverImg: "http://txcdn.dianyinduoduo.com/dj/rank/107.jpg" });
    const first = await call<TopListDetail>("getTopListDetail", { id: "107", title: "中文舞曲榜" }, 1);
    expect(first).toMatchObject({ isEnd: false, topListItem: { id: "107" } });
    expect(first.musicList[0]).toMatchObject({ id: "700", title: "中文舞曲 0", artwork: "http://txcdn.dianyinduoduo.com/dj/cover/700/500/700.jpg" });
    const second = await call<TopListDetail>("getTopListDetail", { id: "107", title: "中文舞曲榜" }, 2);
    expect(second.isEnd).toBe(true);
    expect(second.musicList.map((i) => i.id)).toEqual(["7777"]);
  });
});
