/*
 * 72DJ舞曲网 (www.72dj.com) for the MusicFree plugin protocol. Written by DJ搜索引擎网.
 *
 * Facts it relies on (JDownloader's hoster plugin for 72dj.com, jd/plugins/hoster/SevenTwoDjCom.java;
 * public 72dj scrapers: a requests-html one reading /top/, tinyspider's Dj72ElementParser;
 * /work/shared/SOURCES.md "Others seen in the same ecosystem"):
 * - pages are GBK: read bytes and decode them as GBK.
 * - anti-bot: when a page sets the cookies `secret` (digits) and `token`, set `r` = secret − 100
 *   and `t` = token and load the page again.
 * - /top/: the charts are the links `div.bangNavBd ul li a` (href, name); a chart page lists
 *   up to 100 songs as `#playlist li dl dd a` (href /play/{id}.htm, title the name). One page.
 * - play page /play/{id}.htm: `var p_n="{name}"` and `danceFilePath="{path}"`; the stream
 *   (about 48 kbps) is {media}/m4adj/{path}.m4a, media `https://mp372dj.lianzhixiu.com:37373`
 *   since 2024-06 (before: p21.72djapp.cn, p21.72dj.com:37373). Missing page: 404 or
 *   `<TITLE>无法找到该页</TITLE>`.
 * - no public source shows the site's own search address: search looks through the charts.
 */
const axios = require("axios");
const cheerio = require("cheerio");

const SITE = "http://www.72dj.com";
const MEDIA = "https://mp372dj.lianzhixiu.com:37373/m4adj/";
const PLATFORM = "72DJ舞曲网";
const MAX_CHARTS_SEARCHED = 12;
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

function variable(key) {
  const own = (env.getUserVariables() || {})[key];
  return own && String(own).trim() ? String(own).trim() : "";
}
const site = () => (variable("baseUrl") || SITE).replace(/\/+$/, "");
const media = () => (variable("mediaBase") || MEDIA).replace(/\/*$/, "/");

/** The anti-bot cookies as answered last: `secret=…; token=…; r=…; t=…`, kept for later pages. */
let jar = "";

function challengeOf(headers) {
  let raw = headers && (headers["set-cookie"] || headers["Set-Cookie"]);
  if (Array.isArray(raw)) raw = raw.join("\n");
  raw = String(raw || "");
  const secret = /(?:^|[\s,;])secret=(\d+)/.exec(raw);
  const token = /(?:^|[\s,;])token=([^;,\s]+)/.exec(raw);
  return secret && token ? { secret: secret[1], token: token[1] } : null;
}

/** A GBK page of the site as text, answering the cookie challenge once if it is put. */
async function page(path) {
  for (let attempt = 0; ; attempt++) {
    const headers = { "User-Agent": UA, Referer: site() + "/" };
    if (jar) headers.Cookie = jar;
    const res = await axios.get(site() + path, { responseType: "arraybuffer", headers });
    const challenge = challengeOf(res.headers);
    if (challenge && attempt === 0) {
      const r = (BigInt(challenge.secret) - 100n).toString();
      jar = `secret=${challenge.secret}; token=${challenge.token}; r=${r}; t=${challenge.token}`;
      continue;
    }
    const html = new TextDecoder("gbk").decode(res.data);
    if (/<title>\s*无法找到该页\s*<\/title>/i.test(html)) throw new Error("72DJ: no such page " + path);
    return html;
  }
}

function splitName(name) {
  const m = /^(.+?)\s+[-－–]\s+(.+)$/.exec(name);
  return m ? { artist: m[1].trim(), title: m[2].trim() } : { artist: PLATFORM, title: name };
}

/** A path on the site from an href (relative or absolute). */
function pathOf(href) {
  const m = /^(?:https?:)?\/\/[^/]+(\/.*)$/i.exec(href);
  return m ? m[1] : href.startsWith("/") ? href : "/" + href;
}

async function charts() {
  const $ = cheerio.load(await page("/top/"));
  return $("div.bangNavBd ul li a")
    .map((_, a) => ({ id: pathOf($(a).attr("href") || ""), title: $(a).text().trim() }))
    .get()
    .filter((c) => c.title && c.id !== "/");
}

async function chartSongs(path) {
  const $ = cheerio.load(await page(path));
  const seen = {};
  const items = [];
  $("#playlist li dl dd a").each((_, a) => {
    const m = /\/play\/(\d+)\.htm/.exec($(a).attr("href") || "");
    const name = ($(a).attr("title") || $(a).text()).trim();
    if (!m || !name || seen[m[1]]) return;
    seen[m[1]] = true;
    items.push({ id: m[1], platform: PLATFORM, ...splitName(name) });
  });
  return items;
}

async function playPage(id) {
  const html = await page(`/play/${encodeURIComponent(id)}.htm`);
  const name = /var\s+p_n\s*=\s*"([^"]*)"/.exec(html);
  const file = /danceFilePath\s*=\s*"([^"]+)"/.exec(html);
  return { name: name ? name[1].trim() : "", file: file ? file[1] : "" };
}

module.exports = {
  platform: PLATFORM,
  version: "1.0.0",
  author: "DJ搜索引擎网",
  srcUrl: "https://example.invalid/plugins/72dj.js",
  cacheControl: "no-store",
  supportedSearchType: ["music"],
  userVariables: [
    { key: "baseUrl", name: "站点地址", hint: "留空使用官方地址" },
    { key: "mediaBase", name: "音频地址前缀", hint: "留空使用 https://mp372dj.lianzhixiu.com:37373/m4adj/" },
  ],

  async search(query, page, type) {
    if ((type && type !== "music") || (page || 1) > 1) return { isEnd: true, data: [] };
    const wanted = String(query).trim().toLowerCase();
    if (!wanted) return { isEnd: true, data: [] };
    const seen = {};
    const data = [];
    for (const chart of (await charts()).slice(0, MAX_CHARTS_SEARCHED)) {
      for (const item of await chartSongs(chart.id)) {
        if (seen[item.id] || !`${item.artist} ${item.title}`.toLowerCase().includes(wanted)) continue;
        seen[item.id] = true;
        data.push(item);
      }
    }
    return { isEnd: true, data };
  },

  async getMediaSource(musicItem) {
    const { file } = await playPage(musicItem.id);
    if (!file) throw new Error("72DJ: no danceFilePath on the play page");
    return { url: /^https?:\/\//i.test(file) ? file : media() + file.replace(/^\/+/, "") + ".m4a", headers: { Referer: site() + "/" }, quality: "low" };
  },

  async getMusicInfo(musicItem) {
    const { name } = await playPage(musicItem.id);
    return name ? splitName(name) : {};
  },

  async getTopLists() {
    return [{ title: "排行榜", data: await charts() }];
  },

  async getTopListDetail(topListItem) {
    const path = pathOf(String(topListItem.id));
    return { isEnd: true, musicList: await chartSongs(path), topListItem };
  },
};
