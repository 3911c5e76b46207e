/*
 * 36DJ (www.36dj.com, an Empire CMS site) for the MusicFree plugin protocol. Written by DJ搜索引擎网.
 *
 * Facts it relies on (read in hebijunge/musicfree-plugins plugins/36dj-source.plugin.v1.2.1.js):
 * - search: POST /e/search/index.php, form classid=1&keyboard={kw}&show=title (a GET only gives
 *   an empty shell); the answer is one page of results.
 * - every list: rows `li` holding `input[name="check"][value={id}]` and a link to /play/{id}.html
 *   whose text is the name (`歌手 - 歌名(…)`).
 * - lists: /xc/ 串烧舞曲, /myxc/ 慢摇串烧, /zw/ 中文舞曲, /my/ 慢摇舞曲, /yw/ 英文舞曲,
 *   /html/new/ 最新, /html/good/ 推荐, /top/ 舞曲榜; page n > 1 is {list}{n}.html.
 * - play page /play/{id}.html: `var info = {"playurl": "{path}.m4a", …}`; the stream is
 *   https://tn1.72djapp.cn/{path} (64 kbps m4a, the 72dj family's media host) unless absolute.
 */
const axios = require("axios");
const cheerio = require("cheerio");

const SITE = "https://www.36dj.com";
const MEDIA = "https://tn1.72djapp.cn/";
const PLATFORM = "36DJ";
const LIST_FULL = 10; // fewer rows than this on a list page: the last page
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

const LISTS = [
  ["/top/", "DJ舞曲榜"], ["/html/good/", "推荐舞曲"], ["/html/new/", "最新舞曲"],
  ["/xc/", "串烧舞曲"], ["/myxc/", "慢摇串烧"], ["/zw/", "中文舞曲"], ["/my/", "慢摇舞曲"], ["/yw/", "英文舞曲"],
];

function site() {
  const own = (env.getUserVariables() || {}).baseUrl;
  return own && String(own).trim() ? String(own).trim().replace(/\/+$/, "") : SITE;
}

function splitName(name) {
  const m = /^(.+?)\s+[-－–]\s+(.+)$/.exec(name);
  return m ? { artist: m[1].trim(), title: m[2].trim() } : { artist: PLATFORM, title: name };
}

function readRows(html) {
  const $ = cheerio.load(html);
  const seen = {};
  const items = [];
  $('li input[name="check"]').each((_, input) => {
    const id = $(input).attr("value");
    const link = $(input).closest("li").find('a[href*="/play/"]').first();
    const name = link.text().replace(/\s+/g, " ").trim();
    if (!id || !name || seen[id]) return;
    seen[id] = true;
    items.push({ id, platform: PLATFORM, ...splitName(name) });
  });
  return items;
}

module.exports = {
  platform: PLATFORM,
  version: "1.0.0",
  author: "DJ搜索引擎网",
  srcUrl: "https://example.invalid/plugins/36dj.js",
  cacheControl: "no-store",
  supportedSearchType: ["music"],
  userVariables: [{ key: "baseUrl", name: "站点地址", hint: "留空使用官方地址" }],

  async search(query, page, type) {
    // The site answers one page of results: later pages are empty.
    if ((type && type !== "music") || (page || 1) > 1) return { isEnd: true, data: [] };
    const form = new URLSearchParams({ classid: "1", keyboard: String(query), show: "title" }).toString();
    const res = await axios.post(site() + "/e/search/index.php", form, {
      headers: { "User-Agent": UA, "Content-Type": "application/x-www-form-urlencoded", Referer: site() + "/e/search/" },
      responseType: "text",
    });
    return { isEnd: true, data: readRows(String(res.data)) };
  },

  async getMediaSource(musicItem) {
    const res = await axios.get(`${site()}/play/${encodeURIComponent(musicItem.id)}.html`, { headers: { "User-Agent": UA, Referer: site() + "/" }, responseType: "text" });
    // `"playurl": "…"` (a quoted key in `var info = {…}`) or `playurl: '…'`.
    const m = /["']?playurl["']?\s*[:=]\s*["']([^"']+)["']/.exec(String(res.data));
    if (!m) throw new Error("36DJ: no playurl on the play page");
    const path = m[1].replace(/\\\//g, "/");
    const url = /^https?:\/\//i.test(path) ? path : path.startsWith("//") ? "https:" + path : MEDIA + path.replace(/^\/+/, "");
    return { url, headers: { Referer: site() + "/" }, userAgent: UA, quality: "64k" };
  },

  async getTopLists() {
    return [{ title: "分类与榜单", data: LISTS.map(([path, title]) => ({ id: path, title })) }];
  },

  async getTopListDetail(topListItem, page) {
    const p = page || 1;
    const path = String(topListItem.id);
    if (!LISTS.some(([known]) => known === path)) throw new Error("36DJ: unknown list " + path);
    const res = await axios.get(site() + path + (p > 1 ? `${p}.html` : ""), {
      headers: { "User-Agent": UA },
      responseType: "text",
      validateStatus: (s) => (s >= 200 && s < 300) || s === 404,
    });
    // Past the last page Empire CMS answers 404: an empty last page, not an error.
    if (res.status === 404) return { isEnd: true, musicList: [], topListItem };
    const musicList = readRows(String(res.data));
    return { isEnd: musicList.length < LIST_FULL, musicList, topListItem };
  },
};
