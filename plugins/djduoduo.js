/*
 * DJ多多 (the DJ多多 app's API, new.dianyinduoduo.com) for the MusicFree plugin protocol.
 * Written by DJ搜索引擎网.
 *
 * Facts it relies on (read in hebijunge/musicfree-plugins plugins/djduoduo-source.plugin.v1.0.1.js,
 * whose notes cite the API's public write-up and live probes of 2026-09):
 * - requests: GET {api}/{entry}?act={act}&data={D}&extra={E}, User-Agent okhttp/4.9.2, where D
 *   and E are base64 of AES-128-CBC/PKCS7 (the request key and IV below) over JSON: D the call's
 *   fields, E the device {VerCode: 5568, Ver: "5.5.68", Platform: "Android", AppId: 120, …}
 *   (VerCode 7000 is refused).
 * - answers: JSON, or base64 of AES-128-CBC under the answer key and IV; `RetCode` 200 is success.
 * - search: search.php act=sch {Query, From: "Search", Uid: 0, PageNo} (PageNo counts from 0)
 *   → {List, HasMore} (HasMore 1: another page); 30 songs a page.
 * - charts: no list call; eight ids (below), getlist.php act=rank_detail {Id, PageNo} → {List}.
 * - one song: getlist.php act=detail {Id} → {List: [song]}.
 * - a song: {Id, Name, User (uploader), Cover, Duration (s), Path, Size, Bitrate, MaxQ}. Path is
 *   encrypted under the answer key. The free (logged-out) stream, AAC about 77 kbps:
 *   http://bdcdn.djduoduo.com/dj/{last 3 digits of Id}/{Path decrypted}. Higher qualities need a
 *   logged-in account (not used here). Cover: http://txcdn.dianyinduoduo.com/dj/cover/{last 3}/500/{Cover}
 *   (as is when absolute; the image host prefixed when it starts /dj/); chart cover /dj/rank/{Id}.jpg.
 */
const axios = require("axios");
const CryptoJS = require("crypto-js");

const API = "https://new.dianyinduoduo.com/v4";
const AUDIO = "http://bdcdn.djduoduo.com/dj/";
const IMAGES = "http://txcdn.dianyinduoduo.com";
const PLATFORM = "DJ多多";
const PAGE_SIZE = 30;

const hex = CryptoJS.enc.Hex.parse;
const REQUEST_KEY = { key: hex("e82a4a775c295bbbe33f66828a368b90"), iv: hex("8477d5a085c1d50d8a74811ec3e811e4") };
const ANSWER_KEY = { key: hex("e4fd094dfcae98f352ddf81ee760d891"), iv: hex("932ea49cfff68382f0516ccc63a52123") };

const RANKS = [
  [100, "多多飙升榜"], [101, "多多TOP500"], [104, "多多分享榜"], [105, "电音排行榜"],
  [107, "中文舞曲榜"], [108, "英文舞曲榜"], [109, "串烧舞曲榜"], [110, "车载音乐榜"],
];

function api() {
  const own = (env.getUserVariables() || {}).baseUrl;
  return own && String(own).trim() ? String(own).trim().replace(/\/+$/, "") : API;
}

const encrypt = (text) => CryptoJS.AES.encrypt(CryptoJS.enc.Utf8.parse(text), REQUEST_KEY.key, { iv: REQUEST_KEY.iv, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 }).toString();

function decrypt(base64) {
  const plain = CryptoJS.AES.decrypt(String(base64).trim(), ANSWER_KEY.key, { iv: ANSWER_KEY.iv, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 });
  return plain.toString(CryptoJS.enc.Utf8);
}

// One device for the plugin's life: the fields the app sends; the device id is our own random one.
const DEVICE = encrypt(JSON.stringify({ VerCode: 5568, Ver: "5.5.68", Channel: "Honor", Platform: "Android", OSVer: 31, Did: Array.from({ length: 16 }, () => Math.floor(Math.random() * 16).toString(16)).join(""), AppId: 120, Ts: 0, VTs: 0 }));

async function ask(entry, act, fields) {
  const res = await axios.get(`${api()}/${entry}`, {
    params: { act, data: encrypt(JSON.stringify(fields)), extra: DEVICE },
    headers: { "User-Agent": "okhttp/4.9.2" },
    responseType: "text",
  });
  const text = String(res.data).trim();
  let answer;
  try {
    answer = JSON.parse(text.startsWith("{") ? text : decrypt(text));
  } catch (err) {
    throw new Error(`DJ多多: ${act} answered something unreadable`);
  }
  if (!answer || answer.RetCode !== 200) throw new Error(`DJ多多: ${act} RetCode ${answer && answer.RetCode}${answer && answer.Message ? " " + answer.Message : ""}`);
  return answer;
}

const last3 = (id) => String(id).slice(-3);

function coverOf(id, cover) {
  const c = String(cover || "");
  if (!c) return undefined;
  if (/^https?:\/\//.test(c)) return c;
  if (c.startsWith("//")) return "http:" + c;
  if (c.startsWith("/dj/")) return IMAGES + c;
  return `${IMAGES}/dj/cover/${last3(id)}/500/${c}`;
}

function toItem(song) {
  return {
    id: String(song.Id),
    platform: PLATFORM,
    title: String(song.Name || ""),
    artist: String(song.User || PLATFORM),
    artwork: coverOf(song.Id, song.Cover),
    duration: Number(song.Duration) || undefined,
    path: song.Path || undefined, // still encrypted: decrypted at play time
  };
}

const songs = (answer) => (answer.List || []).filter((s) => s && s.Id).map(toItem);

module.exports = {
  platform: PLATFORM,
  version: "1.0.0",
  author: "DJ搜索引擎网",
  srcUrl: "https://example.invalid/plugins/djduoduo.js",
  cacheControl: "no-store",
  supportedSearchType: ["music"],
  userVariables: [{ key: "baseUrl", name: "接口地址", hint: "留空使用官方地址" }],

  async search(query, page, type) {
    if (type && type !== "music") return { isEnd: true, data: [] };
    const answer = await ask("search.php", "sch", { Query: String(query).trim(), From: "Search", Uid: 0, PageNo: (page || 1) - 1 });
    const data = songs(answer);
    return { isEnd: answer.HasMore === undefined ? data.length < PAGE_SIZE : Number(answer.HasMore) !== 1, data };
  },

  async getMediaSource(musicItem) {
    let path = musicItem.path;
    if (!path) {
      const [song] = (await ask("getlist.php", "detail", { Id: Number(musicItem.id) || musicItem.id })).List || [];
      path = song && song.Path;
    }
    const file = path ? decrypt(path) : "";
    if (!file) throw new Error("DJ多多: no playable file for " + musicItem.id);
    return { url: AUDIO + last3(musicItem.id) + "/" + file.replace(/^\/+/, ""), quality: "64k" };
  },

  async getMusicInfo(musicItem) {
    const [song] = (await ask("getlist.php", "detail", { Id: Number(musicItem.id) || musicItem.id })).List || [];
    return song ? toItem(song) : {};
  },

  async getTopLists() {
    return [{ title: "榜单", data: RANKS.map(([id, title]) => ({ id: String(id), title, coverImg: `${IMAGES}/dj/rank/${id}.jpg` })) }];
  },

  async getTopListDetail(topListItem, page) {
    const answer = await ask("getlist.php", "rank_detail", { Id: Number(topListItem.id), PageNo: (page || 1) - 1 });
    const musicList = songs(answer);
    return { isEnd: answer.HasMore === undefined ? musicList.length < PAGE_SIZE : Number(answer.HasMore) !== 1, musicList, topListItem };
  },
};
