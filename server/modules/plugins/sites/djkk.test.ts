import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginSandbox } from "../sandbox/host.js";
import { escapeHtml, loadSitePlugin, newSandbox, startSite, type FixtureSite, type MediaSource, type SearchResult, type SiteRequest, type TopListDetail, type TopListGroup } from "./harness.js";

/** DJKK (pc.djkk.cn, a CSCms site): `li` rows with /dance/{id}.html links, a JSON player answer. */

const row = (id: number, name: string) => `
      <li>
        <div class="checkbox"><input type="checkbox" name="id" value="${id}"></div>
        <a class="sort" href="/dance/lists/4.html">国内舞曲</a>
        <a class="name" href="/dance/${id}.html" title="${escapeHtml(name)}" target="_blank">${escapeHtml(name)}</a>
        <span class="format">MP3</span><span class="hits">1024</span>
      </li>`;

const names = (count: number, from: number) => Array.from({ length: count }, (_, i) => [from + i, `[MP3]DJ小贝 - 情人桥 Remix ${from + i}`] as const);

const page = (body: string, size?: number) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>DJKK</title></head><body>
  <div class="header"><a href="/">DJKK</a></div>
${body}
  <div id="pages"${size ? ` data-size="${size}"` : ""}><a href="#">下一页</a></div>
</body></html>`;

const homeTab = (n: number) => `<div class="layui-tab-item${n === 0 ? " layui-show" : ""}"><ul>${row(900 + n, `DJ榜${n} - 榜单歌曲${n}`)}${row(910 + n, `榜单单曲${n}`)}</ul></div>`;

function route(req: SiteRequest) {
  if (req.path === "/dance/search.html" && req.query.get("key") === "情人桥") {
    const p = Number(req.query.get("page"));
    const rows = p === 1 ? names(34, 1000) : names(3, 1034);
    return { body: page(`<ul class="infolist">${rows.map(([id, n]) => row(id, n)).join("")}</ul>`, 34) };
  }
  if (req.path === "/ajax/danceplayer" && req.method === "POST") {
    const form = new URLSearchParams(req.body);
    if (form.get("id") === "777") return { body: "<html><body>请先登录</body></html>" };
    if (req.headers["content-type"] !== "application/x-www-form-urlencoded" || form.get("ids") !== "" || !req.headers.referer?.endsWith(`/dance/${form.get("id")}.html`)) {
      return { headers: { "content-type": "application/json" }, body: JSON.stringify({ code: 0, msg: "非法请求" }) };
    }
    return { headers: { "content-type": "application/json" }, body: JSON.stringify({ code: 1, msg: "ok", playurl: `https://cdn.pgdjz.fun/dance/2026/10/${form.get("id")}.m4a?auth_key=1790000000-0-0-abc` }) };
  }
  if (req.path === "/") {
    const songs = `<div class="layui-tab"><ul class="layui-tab-title">${["推荐", "最新", "热门", "收藏", "下载"].map((t) => `<li>${t}</li>`).join("")}</ul><div class="layui-tab-content">${[0, 1, 2, 3, 4].map(homeTab).join("")}</div></div>`;
    const videos = `<div class="layui-tab"><div class="layui-tab-content"><div class="layui-tab-item"><ul><li><a href="/video/5.html" title="视频">视频</a></li></ul></div></div></div>`;
    return { body: page(songs + videos) };
  }
  if (req.path === "/dance/lists/63.html") return { body: page(`<div class="musicboxlist"><ul>${names(30, 2000).map(([id, n]) => row(id, n)).join("")}</ul></div>`) };
  if (req.path === "/dance/lists/63/2.html") return { body: page(`<div class="musicboxlist"><ul>${names(4, 2030).map(([id, n]) => row(id, n)).join("")}</ul></div>`) };
  if (req.path === "/dance/1000.html") {
    return { body: page(`<div class="musicpic"><div class="img"><img src="https://img.djkk.cn/cover/1000.jpg"></div></div><div class="tags"><span>所属分类：国内舞曲</span><span>播放时长：01:02:03</span></div>`) };
  }
  return undefined;
}

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
