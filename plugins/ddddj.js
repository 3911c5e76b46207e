/*
 * 清风DJ (www.ddddj.com) for the MusicFree plugin protocol. Written by DJ搜索引擎网.
 *
 * Facts it relies on (read in hebijunge/musicfree-plugins plugins/ddddj-source.plugin.v1.2.1.js
 * and /work/shared/SOURCES.md "Others seen in the same ecosystem"):
 * - search: GET /search.html?keys={kw}&page={n}; 20 items a full page.
 * - every list (search, genres, ranks) holds the same item:
 *   <div class="isgood_list" data-id data-name data-artist data-cover data-audio>.
 * - genres: GET /genre/{slug}/0-0-0-{page}-1.html; ranks: GET /ranks/sole/{n}-0-0-0-{page}.html.
 * - data-audio is a signed stream `…/play/{date}/{name}.mp3?t=…&sign=…` (about 96 kbps); a
 *   changed query answers 403 "media sign required", so the address is handed on whole.
 *   The same file without the query under `/down/` is the 320 kbps one.
 * - the play page /play/{id}.html carries `var playurl = "…"` when a list gave no address.
 */
const axios = require("axios");
const cheerio = require("cheerio");

const SITE = "https://www.ddddj.com";
const PAGE_SIZE = 20;
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

const GENRES = [
  ["cswq", "串烧舞曲"], ["mycs", "慢摇串烧"], ["xcwq", "现场串烧"], ["mccs", "喊麦现场"],
  ["gqlb", "慢歌连版"], ["zwwq", "中文舞曲"], ["ywwq", "英文舞曲"], ["electro", "Electro"],
  ["funkyhouse", "FunkyHouse"], ["proghouse", "ProgHouse"], ["vinahouse", "VinaHouse"], ["lakhouse", "LakHouse"],
];
const RANKS = [["1", "独家推荐"], ["2", "独家中文"], ["3", "独家英文"]];

function site() {
  const own = (env.getUserVariables() || {}).baseUrl;
  return own && String(own).trim() ? String(own).trim().replace(/\/+$/, "") : SITE;
}

async function getHtml(path, params) {
  const res = await axios.get(site() + path, { params, headers: { "User-Agent": UA, Referer: site() + "/" }, responseType: "text" });
  return String(res.data);
}

/** `歌手 - 歌名`: the artist before the first spaced dash, when the site gives none apart. */
function splitName(name) {
  const m = /^(.+?)\s+[-－–]\s+(.+)$/.exec(name);
  return m ? { artist: m[1].trim(), title: m[2].trim() } : { artist: "", title: name };
}

function readList(html) {
  const $ = cheerio.load(html);
  const items = [];
  $("div.isgood_list").each((_, el) => {
    const node = $(el);
    const id = node.attr("data-id");
    const name = (node.attr("data-name") || "").trim();
    if (!id || !name) return;
    const split = splitName(name);
    const artist = (node.attr("data-artist") || "").trim();
    items.push({
      id,
      platform: "清风DJ",
      title: artist ? name : split.title,
      artist: artist || split.artist || "清风DJ",
      artwork: node.attr("data-cover") || undefined,
      audio: node.attr("data-audio") || undefined,
    });
  });
  return items;
}

module.exports = {
  platform: "清风DJ",
  version: "1.0.0",
  author: "DJ搜索引擎网",
  srcUrl: "https://example.invalid/plugins/ddddj.js",
  cacheControl: "no-store",
  supportedSearchType: ["music"],
  userVariables: [{ key: "baseUrl", name: "站点地址", hint: "留空使用官方地址" }],

  async search(query, page, type) {
    if (type && type !== "music") return { isEnd: true, data: [] };
    const data = readList(await getHtml("/search.html", { keys: query, page: page || 1 }));
    return { isEnd: data.length < PAGE_SIZE, data };
  },

  async getMediaSource(musicItem, quality) {
    let url = musicItem.audio;
    if (!url) {
      const html = await getHtml(`/play/${encodeURIComponent(musicItem.id)}.html`);
      const m = /var\s+playurl\s*=\s*["']([^"']+)["']/.exec(html);
      if (!m) throw new Error("清风DJ: no playurl on the play page");
      url = m[1];
    }
    if (url.startsWith("//")) url = "https:" + url;
    // The 320k file sits under /down/ and takes no signature; the signed /play/ one is 96k.
    if (/^(high|super|320k|flac)$/i.test(String(quality || "")) && url.includes("/play/")) {
      return { url: url.replace("/play/", "/down/").split("?")[0], quality: "320k" };
    }
    return { url };
  },

  async getTopLists() {
    return [
      { title: "榜单", data: RANKS.map(([id, title]) => ({ id: "rank_" + id, title })) },
      { title: "分类", data: GENRES.map(([slug, title]) => ({ id: "genre_" + slug, title })) },
    ];
  },

  async getTopListDetail(topListItem, page) {
    const p = page || 1;
    const id = String(topListItem.id);
    let path;
    if (id.startsWith("rank_")) path = `/ranks/sole/${id.slice(5)}-0-0-0-${p}.html`;
    else if (id.startsWith("genre_")) path = `/genre/${id.slice(6)}/0-0-0-${p}-1.html`;
    else throw new Error("清风DJ: unknown list " + id);
    const musicList = readList(await getHtml(path));
    return { isEnd: musicList.length < PAGE_SIZE, musicList, topListItem };
  },
};
