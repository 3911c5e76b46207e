import { createHash } from "node:crypto";
import type { FixtureSite } from "../../../testing/fixture-site.js";

/**
 * A DJ site and a plugin for it written the way community MusicFree plugins are (axios,
 * cheerio, crypto-js, Buffer): the plugin tests install it through the API and use it as a
 * visitor would. The site hides its play address in base64, signs media with an MD5 and checks
 * the Referer, as real sites do.
 */

export const YEDIAN_SALT = "yd2026";

export function yedianPlugin(version: string, baseUrl: string, titlePrefix = ""): string {
  return `
"use strict";
const axios = require("axios");
const cheerio = require("cheerio");
const CryptoJS = require("crypto-js");
const BASE = ${JSON.stringify(baseUrl)};
const headers = { Referer: BASE + "/" };
function base() { const v = env.getUserVariables(); return (v && v.baseUrl) || BASE; }
function item(el, $) {
  const a = $(el).find("a.t");
  const id = a.attr("href").match(/\\/play\\/(\\d+)/)[1];
  const [artist, title] = a.attr("title").split(" - ");
  return { id, platform: "夜店DJ", title: ${JSON.stringify(titlePrefix)} + (title || artist), artist: title ? artist : "", artwork: $(el).find("img").attr("data-src"), duration: Number($(el).attr("data-seconds")) };
}
module.exports = {
  platform: "夜店DJ",
  version: ${JSON.stringify(version)},
  author: "测试",
  srcUrl: BASE + "/plugin.js",
  cacheControl: "no-cache",
  supportedSearchType: ["music"],
  userVariables: [{ key: "baseUrl", name: "站点地址", hint: "留空使用官方地址" }],
  async search(query, page, type) {
    const res = await axios.get(base() + "/search", { params: { key: query, page }, headers });
    const $ = cheerio.load(res.data);
    const data = $("ul.list li").map((i, el) => item(el, $)).get();
    return { isEnd: $("a.next").length === 0, data };
  },
  async getMediaSource(musicItem, quality) {
    const page = await axios.get(base() + "/play/" + musicItem.id, { headers });
    const hidden = /var src = "([^"]+)"/.exec(page.data)[1];
    const path = Buffer.from(hidden, "base64").toString("utf8");
    const sign = CryptoJS.MD5(musicItem.id + ${JSON.stringify(YEDIAN_SALT)}).toString();
    return { url: base() + path + "?sign=" + sign, headers: { Referer: BASE + "/" }, userAgent: "YedianPlayer/2.0" };
  },
  async getTopLists() {
    const res = await axios.get(base() + "/top", { headers });
    const $ = cheerio.load(res.data);
    return [{ title: "排行榜", data: $("a.top").map((i, el) => ({ id: $(el).attr("data-id"), title: $(el).text().trim() })).get() }];
  },
  async getTopListDetail(topListItem, page) {
    const res = await axios.get(base() + "/top/" + topListItem.id, { params: { page }, headers });
    const $ = cheerio.load(res.data);
    return { isEnd: $("a.next").length === 0, musicList: $("ul.list li").map((i, el) => item(el, $)).get(), topListItem };
  },
};
`;
}

const row = (id: number, title: string) => `<li data-seconds="${id % 2 ? 3725 : 245}"><img data-src="https://img.example/c/${id}.jpg"><a class="t" href="/play/${id}" title="${title}">${title}</a></li>`;

/** 40 hits for 夜曲 over two pages, a play page per id, Referer-checked signed media, two top lists. */
export function serveYedian(site: FixtureSite): void {
  const page = (items: string[], next: boolean) => `<html><body><ul class="list">${items.join("")}</ul>${next ? '<a class="next" href="?page=2">下一页</a>' : ""}</body></html>`;
  const html = (res: import("node:http").ServerResponse, body: string) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(body);
  };
  site.route("/search", (req, res) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    if (query.get("key") !== "夜曲") return html(res, page([], false));
    const n = Number(query.get("page") ?? 1);
    const ids = Array.from({ length: 20 }, (_, i) => (n - 1) * 20 + i + 1);
    html(res, page(ids.map((id) => row(id, id % 2 ? `DJ阿华 - 夜曲串烧${id}` : `周杰伦 - 夜曲${id}`)), n < 2));
  });
  site.route(/^\/play\/(\d+)$/, (_req, res, match) => html(res, `<script>var src = "${Buffer.from(`/media/${match![1]}.m4a`).toString("base64")}";</script>`));
  site.route(/^\/media\/(\d+)\.m4a$/, (req, res, match) => {
    const sign = new URL(req.url ?? "/", "http://x").searchParams.get("sign");
    if (sign !== createHash("md5").update(match![1] + YEDIAN_SALT).digest("hex") || !String(req.headers.referer ?? "").endsWith("/")) {
      res.statusCode = 403;
      res.end("media sign required");
      return;
    }
    const body = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypM4A "), Buffer.alloc(1000, 7)]);
    const range = /bytes=(\d+)-(\d+)/.exec(String(req.headers.range ?? ""));
    res.setHeader("content-type", "audio/mp4");
    res.setHeader("accept-ranges", "bytes");
    if (!range) {
      res.end(body);
      return;
    }
    const [start, end] = [Number(range[1]), Math.min(Number(range[2]), body.length - 1)];
    res.statusCode = 206;
    res.setHeader("content-range", `bytes ${start}-${end}/${body.length}`);
    res.end(body.subarray(start, end + 1));
  });
  site.route("/top", (_req, res) => html(res, `<a class="top" data-id="7">串烧周榜</a><a class="top" data-id="8">单曲月榜</a>`));
  site.route(/^\/top\/(\d+)$/, (req, res, match) => {
    const n = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? 1);
    const base = Number(match![1]) * 100 + (n - 1) * 10;
    html(res, page(Array.from({ length: 10 }, (_, i) => row(base + i, `DJ小鱼 - 榜单串烧${base + i}`)), n < 3));
  });
}
