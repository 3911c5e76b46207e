/**
 * A djuu-shaped fixture site whose behaviour a test switches (ADR 0049): working, down in three
 * ways (5xx, hanging, connections reset), blocking (403, a captcha page answered 200), or
 * redesigned (the API in another shape, pages without the parser's markup, media that is a page).
 */
import { file, hang, html, json, status, type FixtureSite } from "../../../testing/fixture-site.js";
import { changedLayoutPage, playPage } from "../adapters/djuu.fixtures.js";

export type SiteMode = "ok" | "5xx" | "timeout" | "reset" | "403" | "captcha" | "drift" | "media-drift";

export const CAPTCHA_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>安全验证</title></head><body><div id="captcha">请拖动滑块完成验证后继续访问</div></body></html>`;

/** An m4a's first bytes (an `ftyp` box), then filler: enough for a 16-byte Range read. */
export const M4A = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypM4A \0\0\0\0M4A mp42isom"), Buffer.alloc(2048, 7)]);

const PAGES = 3;

function categoryPage(cid: string, page: number): string {
  const items = [1, 2, 3, 4]
    .map((n) => `<div class="isgood_list"><p class="t1"><a href="/play/8${page}0${n}.html" title="DJ${n}号-慢摇串烧 第${page}页"></a></p></div>`)
    .join("");
  const next = page < PAGES ? `<a href="/djlist/${cid}_1_${page + 1}.html">下一页</a>` : "";
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>分类 - DJ呦呦</title></head><body>${items}<div class="page"><span class="current">${page}</span>${next}</div></body></html>`;
}

const searchAnswer = {
  code: 1,
  msg: "ok",
  data: {
    total: 40,
    list: [1, 2, 3, 4, 5].map((n) => ({ id: 7000 + n, title: `DJ阿福 - 串烧Remix 第${n}首`, coverImgShow: "", duration: 240 + n, hits_num: 100 - n, size: 2_000_000, create_time: 1790000000 })),
  },
};

/** Serves every path by the site's current mode; returns the switch. */
export function serveCanarySite(site: FixtureSite): { mode(next: SiteMode): void } {
  let mode: SiteMode = "ok";
  site.route(/^\//u, (req, res, match) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (mode === "5xx") return status(503, "Service Unavailable")(req, res, match);
    if (mode === "timeout") return hang(req, res, match);
    if (mode === "reset") return void req.socket.destroy();
    if (mode === "403") return status(403, "Forbidden")(req, res, match);
    if (mode === "captcha") return html(CAPTCHA_PAGE)(req, res, match);
    if (url.pathname === "/app/v1/music/search") return json(mode === "drift" ? { code: 1, data: { records: searchAnswer.data.list } } : searchAnswer)(req, res, match);
    if (url.pathname === "/search") return html(changedLayoutPage())(req, res, match);
    const list = /^\/djlist\/(\d+)_(\d+)\.html$/u.exec(url.pathname);
    if (list) return html(mode === "drift" ? changedLayoutPage() : categoryPage(list[1]!, Number(list[2])))(req, res, match);
    if (url.pathname === "/app/v1/music/listen") {
      const id = url.searchParams.get("id") ?? "0";
      return json({ code: 1, msg: "ok", data: { listenurl: `${site.url}/media/${id}.m4a`, vipListenUrl: "" } })(req, res, match);
    }
    if (url.pathname.startsWith("/media/")) return mode === "media-drift" ? html(changedLayoutPage())(req, res, match) : file(M4A, "audio/mp4")(req, res, match);
    const play = /^\/play\/(\d+)\.html$/u.exec(url.pathname);
    if (play) return html(playPage(play[1]!))(req, res, match);
    return status(404)(req, res, match);
  });
  return { mode: (next) => void (mode = next) };
}
