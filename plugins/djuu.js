/*
 * DJ呦呦 (www.djuu.com; its app is DJ叮叮) for the MusicFree plugin protocol. Written by DJ搜索引擎网.
 *
 * Facts it relies on (/work/shared/SOURCES.md "djuu"; hebijunge/musicfree-plugins
 * plugins/djuu-source.plugin.v1.1.1.js):
 * - the app API: base https://android.djuu.com/app/v1, header Accept: application/json, an
 *   Android browser User-Agent ending in com.djuu.player, no token; paging `page`, `row`.
 *   Envelope {code: 1, msg, data: {list, total}}; any other code is an error. An answer may come
 *   JSON-encoded twice: unwrap up to two levels.
 * - search: /music/search?keywords=&page=&row= ; song fields id, title (`歌手 - 标题`),
 *   coverImgShow, duration (s).
 * - stream: /music/listen?id= → {listenurl (the direct m4a, no Referer check), vipListenUrl
 *   (empty when logged out)}.
 * - charts: /music/playRankings?rankType=1 (热门) | 2 (推荐) ; 3 is unnamed, left out.
 * - the web play page /play/{id}.html, the fallback for the stream: a script
 *   `var music = {…, file: 'c4/22/2026/xxxx', …}` (field order varies) → https://mp4.djuu.com/{file}.m4a
 *   (a .mp3 suffix is 404; a file starting with http is used as it is).
 */
const axios = require("axios");

const API = "https://android.djuu.com/app/v1";
const SITE = "https://www.djuu.com";
const MEDIA = "https://mp4.djuu.com/";
const PLATFORM = "DJ呦呦";
const SEARCH_ROWS = 20;
const CHART_ROWS = 30;
const UA = "Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36 com.djuu.player";

function variable(key, fallback) {
  const own = (env.getUserVariables() || {})[key];
  return (own && String(own).trim() ? String(own).trim() : fallback).replace(/\/+$/, "");
}

async function ask(path, params) {
  const res = await axios.get(variable("baseUrl", API) + path, { params, headers: { "User-Agent": UA, Accept: "application/json" }, responseType: "text" });
  let body = res.data;
  for (let i = 0; i < 2 && typeof body === "string"; i++) {
    try {
      body = JSON.parse(body);
    } catch {
      break;
    }
  }
  if (!body || typeof body !== "object") throw new Error(`DJ呦呦: ${path} did not answer JSON`);
  if (Number(body.code) !== 1) throw new Error(`DJ呦呦: ${path} code ${body.code}${body.msg ? " " + body.msg : ""}`);
  return body.data || {};
}

function toItem(song) {
  const name = String(song.title || "").trim();
  const m = /^(.+?)\s+[-－–]\s+(.+)$/.exec(name);
  return {
    id: String(song.id),
    platform: PLATFORM,
    title: m ? m[2].trim() : name,
    artist: m ? m[1].trim() : PLATFORM,
    artwork: song.coverImgShow || undefined,
    duration: Number(song.duration) || undefined,
  };
}

const listOf = (data) => (data.list || []).filter((s) => s && s.id !== undefined).map(toItem);
const ended = (page, rows, total) => page * rows >= (Number(total) || 0);

module.exports = {
  platform: PLATFORM,
  version: "1.0.0",
  author: "DJ搜索引擎网",
  srcUrl: "https://example.invalid/plugins/djuu.js",
  cacheControl: "no-store",
  supportedSearchType: ["music"],
  userVariables: [
    { key: "baseUrl", name: "站点地址", hint: "留空使用官方地址（App 接口 https://android.djuu.com/app/v1）" },
    { key: "webUrl", name: "网页地址", hint: "留空使用 https://www.djuu.com（取播放地址的后备）" },
  ],

  async search(query, page, type) {
    const p = page || 1;
    if ((type && type !== "music") || !String(query).trim()) return { isEnd: true, data: [] };
    const data = await ask("/music/search", { keywords: String(query).trim(), page: p, row: SEARCH_ROWS });
    return { isEnd: ended(p, SEARCH_ROWS, data.total), data: listOf(data) };
  },

  async getMediaSource(musicItem, quality) {
    try {
      const data = await ask("/music/listen", { id: musicItem.id });
      if (data.vipListenUrl && /^(high|super|320k|flac)$/i.test(String(quality || ""))) return { url: data.vipListenUrl };
      if (data.listenurl) return { url: data.listenurl, quality: "64k" };
    } catch (err) {
      // The web play page below is the fallback.
    }
    const res = await axios.get(`${variable("webUrl", SITE)}/play/${encodeURIComponent(musicItem.id)}.html`, { headers: { "User-Agent": UA }, responseType: "text" });
    const m = /var\s+music\s*=\s*\{[^}]*?\bfile\s*:\s*['"]([^'"]+)['"]/.exec(String(res.data));
    if (!m) throw new Error("DJ呦呦: no file on the play page");
    return { url: /^https?:\/\//.test(m[1]) ? m[1] : MEDIA + m[1].replace(/^\/+/, "") + ".m4a", quality: "64k" };
  },

  async getTopLists() {
    return [{ title: "播放排行", data: [{ id: "1", title: "热门榜" }, { id: "2", title: "推荐榜" }] }];
  },

  async getTopListDetail(topListItem, page) {
    const p = page || 1;
    const data = await ask("/music/playRankings", { rankType: topListItem.id, page: p, row: CHART_ROWS });
    return { isEnd: ended(p, CHART_ROWS, data.total), musicList: listOf(data), topListItem };
  },
};
