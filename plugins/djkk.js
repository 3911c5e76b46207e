/*
 * DJKK (pc.djkk.cn) for the MusicFree plugin protocol. Written by DJ搜索引擎网.
 *
 * Facts it relies on (read in hebijunge/musicfree-plugins plugins/djkk-source.plugin.v1.1.1.js):
 * - search: GET /dance/search.html?key={kw}&page={n} → rows `ul.infolist li`; a row's song is its
 *   first link to /dance/{id}.html, whose title attribute is the clean name (may start "[MP3]").
 *   The page size is in `#pages[data-size]` (34 when absent).
 * - stream: POST /ajax/danceplayer, form `id={id}&ids=&historyid=`, Referer the song's page →
 *   JSON {code: 1, playurl} (a 64 kbps m4a, logged out); the media wants a Referer of the site.
 * - charts: the home page's first `.layui-tab` holds five `.layui-tab-item` lists in the order
 *   推荐/最新/热门/收藏/下载 (one page each); categories GET /dance/lists/{cid}.html, then
 *   /dance/lists/{cid}/{n}.html, rows in `.musicboxlist li` (`#pages[data-size]`, 30 when absent).
 * - song page /dance/{id}.html: cover `.musicpic .img img`, "播放时长：01:02:03" in `.tags`.
 */
const axios = require("axios");
const cheerio = require("cheerio");

const SITE = "https://pc.djkk.cn";
const PLATFORM = "DJKK";
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

const HOME_TABS = ["推荐歌曲", "最新歌曲", "热门歌曲", "热门收藏", "下载排行"];
const CATEGORIES = [
  [1, "无损舞曲"], [4, "国内舞曲"], [2, "国外舞曲"], [22, "中文单曲"], [63, "中文串烧"], [6, "国外串烧"],
  [29, "粤语嗨曲"], [85, "车载音乐"], [116, "车载3D音乐"], [176, "早场Mix"], [177, "中场Mix"], [178, "后场Mix"],
];

function site() {
  const own = (env.getUserVariables() || {}).baseUrl;
  return own && String(own).trim() ? String(own).trim().replace(/\/+$/, "") : SITE;
}

async function load(path, params) {
  const res = await axios.get(site() + path, { params, headers: { "User-Agent": UA }, responseType: "text" });
  return cheerio.load(String(res.data));
}

function splitName(name) {
  const m = /^(.+?)\s+[-－–]\s+(.+)$/.exec(name);
  return m ? { artist: m[1].trim(), title: m[2].trim() } : { artist: PLATFORM, title: name };
}

/** Rows of a list: each `li` whose first /dance/{id}.html link names the song. */
function readRows($, container) {
  const items = [];
  $(container).find("li").each((_, li) => {
    const link = $(li).find('a[href*="/dance/"]').filter((_, a) => /\/dance\/\d+\.html/.test($(a).attr("href") || "")).first();
    if (!link.length) return;
    const id = /\/dance\/(\d+)\.html/.exec(link.attr("href"))[1];
    const name = (link.attr("title") || link.text()).replace(/^\[(MP3|M4A|WAV|FLAC)\]\s*/i, "").replace(/\s+/g, " ").trim();
    if (!name) return;
    items.push({ id, platform: PLATFORM, ...splitName(name) });
  });
  return items;
}

const pageSize = ($, fallback) => Number($("#pages").attr("data-size")) || fallback;

function clockToSeconds(text) {
  const parts = String(text).split(":").map(Number);
  if (parts.some((n) => !Number.isFinite(n))) return undefined;
  return parts.reduce((total, n) => total * 60 + n, 0);
}

module.exports = {
  platform: PLATFORM,
  version: "1.0.0",
  author: "DJ搜索引擎网",
  srcUrl: "https://example.invalid/plugins/djkk.js",
  cacheControl: "no-store",
  supportedSearchType: ["music"],
  userVariables: [{ key: "baseUrl", name: "站点地址", hint: "留空使用官方地址" }],

  async search(query, page, type) {
    if (type && type !== "music") return { isEnd: true, data: [] };
    const $ = await load("/dance/search.html", { key: query, page: page || 1 });
    const data = readRows($, "ul.infolist");
    return { isEnd: data.length < pageSize($, 34), data };
  },

  async getMediaSource(musicItem) {
    const id = encodeURIComponent(musicItem.id);
    const res = await axios.post(site() + "/ajax/danceplayer", `id=${id}&ids=&historyid=`, {
      headers: { "User-Agent": UA, "Content-Type": "application/x-www-form-urlencoded", Referer: `${site()}/dance/${id}.html`, "X-Requested-With": "XMLHttpRequest" },
    });
    let answer = res.data;
    if (typeof answer === "string") {
      try {
        answer = JSON.parse(answer);
      } catch {
        answer = null; // an HTML page instead of the player's JSON
      }
    }
    if (!answer || Number(answer.code) !== 1 || !answer.playurl) throw new Error("DJKK: no playurl (" + (answer && answer.msg ? answer.msg : "code " + (answer && answer.code)) + ")");
    return { url: answer.playurl, headers: { Referer: site() + "/" }, userAgent: UA, quality: "64k" };
  },

  async getMusicInfo(musicItem) {
    const $ = await load(`/dance/${encodeURIComponent(musicItem.id)}.html`);
    const info = {};
    const cover = $(".musicpic .img img").attr("src");
    if (cover) info.artwork = cover;
    const m = /播放时长[:：]?\s*([\d:]+)/.exec($(".tags").text());
    const seconds = m && clockToSeconds(m[1]);
    if (seconds) info.duration = seconds;
    return info;
  },

  async getTopLists() {
    return [
      { title: "首页榜单", data: HOME_TABS.map((title, i) => ({ id: "home_" + i, title })) },
      { title: "分类", data: CATEGORIES.map(([cid, title]) => ({ id: "cat_" + cid, title })) },
    ];
  },

  async getTopListDetail(topListItem, page) {
    const p = page || 1;
    const id = String(topListItem.id);
    if (id.startsWith("home_")) {
      const $ = await load("/");
      const tab = $(".layui-tab").first().find(".layui-tab-item").eq(Number(id.slice(5)));
      return { isEnd: true, musicList: readRows($, tab), topListItem };
    }
    if (id.startsWith("cat_")) {
      const cid = encodeURIComponent(id.slice(4));
      const $ = await load(p > 1 ? `/dance/lists/${cid}/${p}.html` : `/dance/lists/${cid}.html`);
      const musicList = readRows($, ".musicboxlist");
      return { isEnd: musicList.length < pageSize($, 30), musicList, topListItem };
    }
    throw new Error("DJKK: unknown list " + id);
  },
};
