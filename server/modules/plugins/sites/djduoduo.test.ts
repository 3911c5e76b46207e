import { createCipheriv, createDecipheriv } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginSandbox } from "../sandbox/host.js";
import { loadSitePlugin, newSandbox, startSite, type FixtureSite, type MediaSource, type SearchResult, type SiteRequest, type TopListDetail, type TopListGroup } from "./harness.js";

/**
 * DJ多多's app API: requests carry AES-128-CBC-encrypted JSON (`data`, `extra`), answers are JSON or
 * AES-encrypted JSON under a second key, and a song's `Path` is encrypted too. The fixture decrypts
 * what the plugin sends with Node's crypto, so a wrong key, IV or field fails here.
 */

const REQUEST = { key: Buffer.from("e82a4a775c295bbbe33f66828a368b90", "hex"), iv: Buffer.from("8477d5a085c1d50d8a74811ec3e811e4", "hex") };
const ANSWER = { key: Buffer.from("e4fd094dfcae98f352ddf81ee760d891", "hex"), iv: Buffer.from("932ea49cfff68382f0516ccc63a52123", "hex") };

const seal = (text: string) => {
  const c = createCipheriv("aes-128-cbc", ANSWER.key, ANSWER.iv);
  return Buffer.concat([c.update(text, "utf8"), c.final()]).toString("base64");
};
const open = (base64: string) => {
  const d = createDecipheriv("aes-128-cbc", REQUEST.key, REQUEST.iv);
  return JSON.parse(Buffer.concat([d.update(Buffer.from(base64, "base64")), d.final()]).toString("utf8")) as Record<string, unknown>;
};

const song = (id: number, name: string, user = "DJ小鱼儿") => ({ Id: id, Name: name, User: user, Cover: `${id}.jpg`, Duration: 232, Path: seal(`${id}_a1b2.aac`), Size: 2239766, Bitrate: 77, MaxQ: 3 });

const calls: { act: string; data: Record<string, unknown>; extra: Record<string, unknown> }[] = [];

function route(req: SiteRequest) {
  const act = req.query.get("act") ?? "";
  const data = open(req.query.get("data") ?? "");
  const extra = open(req.query.get("extra") ?? "");
  calls.push({ act, data, extra });
  if (req.headers["user-agent"] !== "okhttp/4.9.2" || extra.VerCode !== 5568) return { body: JSON.stringify({ RetCode: 403, Message: "Access deny" }) };
  if (req.path === "/v4/search.php" && act === "sch" && data.Query === "社会摇" && data.From === "Search") {
    const page = data.PageNo as number;
    const list = page === 0 ? Array.from({ length: 30 }, (_, i) => song(1234500 + i, `社会摇 ${i}`)) : [song(1234599, "社会摇 最后一首", "")];
    // The search answers encrypted as a whole, like the app's.
    return { headers: { "content-type": "text/plain" }, body: seal(JSON.stringify({ RetCode: 200, List: list, HasMore: page === 0 ? 1 : 0 })) };
  }
  if (req.path === "/v4/getlist.php" && act === "rank_detail" && data.Id === 107) {
    const list = data.PageNo === 0 ? Array.from({ length: 30 }, (_, i) => song(700 + i, `中文舞曲 ${i}`)) : [song(7777, "中文舞曲 末页")];
    return { headers: { "content-type": "application/json" }, body: JSON.stringify({ RetCode: 200, List: list }) };
  }
  if (req.path === "/v4/getlist.php" && act === "detail" && data.Id === 1234501) {
    return { headers: { "content-type": "application/json" }, body: JSON.stringify({ RetCode: 200, List: [song(1234501, "社会摇 1")] }) };
  }
  return { body: JSON.stringify({ RetCode: 401, Message: "参数错误" }) };
}

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
