import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginSandbox } from "../sandbox/host.js";
import { escapeHtml, loadSitePlugin, newSandbox, startSite, type FixtureSite, type MediaSource, type SearchResult, type SiteRequest, type TopListDetail, type TopListGroup } from "./harness.js";

/** 36DJ (Empire CMS): `li` rows with input[name=check], search by POST, `var info = {"playurl": …}`. */

const row = (id: number, name: string) =>
  `<li><input type="checkbox" name="check" value="${id}" class="check"><span class="num">${id % 100}</span><a href="/play/${id}.html" target="_blank" title="${escapeHtml(name)}">${escapeHtml(name)}</a><span class="time">2026-10-01</span><a href="/down/${id}.html">下载</a></li>`;

const listPage = (title: string, rows: [number, string][]) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}_36DJ舞曲网</title></head><body>
<div class="nav"><a href="/xc/">串烧舞曲</a><a href="/zw/">中文舞曲</a></div>
<div class="list_box"><ul class="list">
${rows.map(([id, n]) => row(id, n)).join("\n")}
</ul></div>
<div class="page"><a href="/xc/2.html">2</a></div>
</body></html>`;

const songs = (count: number, from: number): [number, string][] => Array.from({ length: count }, (_, i) => [from + i, `DJ阿远 - 说散就散(ProgHouse ${from + i})`]);

function route(req: SiteRequest) {
  if (req.path === "/e/search/index.php" && req.method === "POST") {
    const form = new URLSearchParams(req.body);
    if (form.get("classid") !== "1" || form.get("show") !== "title" || form.get("keyboard") !== "说散就散") return { body: listPage("搜索", []) };
    const rows = songs(3, 8801);
    rows.push([8801, "DJ阿远 - 说散就散(ProgHouse 8801)"]); // the same song twice on the page
    rows.push([8899, "说散就散 慢摇版"]);
    return { body: listPage("搜索结果", rows) };
  }
  if (req.path === "/xc/") return { body: listPage("串烧舞曲", songs(30, 7000)) };
  if (req.path === "/xc/2.html") return { body: listPage("串烧舞曲", songs(4, 7030)) };
  if (req.path === "/xc/3.html") return undefined;
  if (req.path === "/play/8801.html") {
    return { body: `<html><head><title>说散就散_36DJ</title></head><body><h1>DJ阿远 - 说散就散</h1><script type="text/javascript">var info = {"id":"8801","title":"DJ阿远 - 说散就散","playurl":"2026\\/1001\\/8801.m4a","classid":"2"};</script></body></html>` };
  }
  return undefined;
}

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
