import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginSandbox } from "../sandbox/host.js";
import { escapeHtml, loadSitePlugin, newSandbox, startSite, type FixtureSite, type MediaSource, type SearchResult, type SiteAnswer, type SiteRequest, type TopListDetail, type TopListGroup } from "./harness.js";

/**
 * 72DJ舞曲网: GBK pages behind a cookie challenge. The fixture serves a page only to a request
 * carrying r = secret − 100 and t = token; anything else gets the challenge (Set-Cookie secret,
 * token) and a short page. Every page is GBK bytes.
 */

const SECRET = "9007199254741093"; // past 2^53: the answer must be exact
const TOKEN = "a1b2c3d4e5f6";
const ANSWER = "9007199254740993";

const gbk = (html: string, headers: Record<string, string | string[]> = {}): SiteAnswer => ({ headers: { "content-type": "text/html; charset=gb2312", ...headers }, body: iconv.encode(html, "gbk") });

const challenge = (): SiteAnswer =>
  gbk(`<html><head><title>安全检查</title></head><body><script>location.reload();</script>正在进行安全检查……</body></html>`, {
    "set-cookie": [`secret=${SECRET}; path=/`, `token=${TOKEN}; path=/`, "ASPSESSIONIDQQ=XYZ; path=/"],
  });

const passed = (req: SiteRequest) => {
  const cookies = Object.fromEntries(String(req.headers.cookie ?? "").split(/;\s*/).map((c) => c.split("=") as [string, string]));
  return cookies.r === ANSWER && cookies.t === TOKEN;
};

const shell = (title: string, body: string) => `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"><html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312" /><title>${title} - 72DJ舞曲网 www.72dj.com</title></head><body>
<div class="bangNav"><div class="bangNavBd"><ul>
<li><a href="/top/">总排行榜</a></li>
<li><a href="/top/zwwq.htm">中文舞曲榜</a></li>
<li><a href="http://www.72dj.com/top/cs.htm">串烧舞曲榜</a></li>
</ul></div></div>
${body}
</body></html>`;

const chart = (songs: [number, string][]) =>
  `<ul id="playlist">${songs.map(([id, name]) => `<li><dl><dt><input type="checkbox" name="id" value="${id}" /></dt><dd><a href="/play/${id}.htm" title="${escapeHtml(name)}" target="72djplay">${escapeHtml(name)}</a></dd><dd class="hits">3${id}</dd></dl></li>`).join("\n")}</ul>`;

const CHINESE = [
  [32853, "湛江Dj小帅 - 一路向北(粤语Remix)"],
  [32854, "DJ阿福 - 夜店慢摇串烧"],
  [32855, "伤感情歌 连版"],
] as [number, string][];
const MIXES = [
  [40001, "南宁DJ小龙 - 一路向北(Electro Mix)"],
  [32853, "湛江Dj小帅 - 一路向北(粤语Remix)"], // on two charts: found once
] as [number, string][];

function route(req: SiteRequest): SiteAnswer | undefined {
  if (req.path === "/play/666.htm") return challenge(); // a page the challenge never lets through
  if (!passed(req)) return challenge();
  if (req.path === "/top/") return gbk(shell("DJ舞曲排行榜", chart(CHINESE)));
  if (req.path === "/top/zwwq.htm") return gbk(shell("中文舞曲榜", chart(CHINESE)));
  if (req.path === "/top/cs.htm") return gbk(shell("串烧舞曲榜", chart(MIXES)));
  if (req.path === "/play/32853.htm") {
    return gbk(shell("湛江Dj小帅 - 一路向北(粤语Remix)", `<script type="text/javascript">var p_id="32853";var p_n="湛江Dj小帅 - 一路向北(粤语Remix)";var danceFilePath="2016/7201/2602/32853";</script><script src="/flash/mp.js"></script>`));
  }
  if (req.path === "/play/404.htm") return gbk(`<html><head><TITLE>无法找到该页</TITLE></head><body></body></html>`);
  return undefined;
}

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
