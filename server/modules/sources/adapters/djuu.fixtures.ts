/**
 * djuu pages and app answers in the shapes of SOURCES.md, written by us (the site cannot be
 * reached from our machines). Shared by the djuu adapter's tests and the generic adapter's
 * "djuu from configuration" test.
 */
import { html, json, status, type FixtureSite } from "../../../testing/fixture-site.js";

export const SEARCH_ITEMS = [
  { id: "201001", title: "周杰伦 - 夜曲(DJ阿福 Electro Rmx 2025 粤语)", cover: "/upload/cover/201001.jpg" },
  { id: "201002", title: "【DJUU独家】南宁DJ小鱼-全中文国粤语Club音乐夜曲串烧", cover: "https://img.djuu.com/cover/201002.jpg" },
  { id: "201003", title: "陈奕迅 - 夜曲一首(DJ小强 Remix)", cover: "/upload/cover/201003.jpg" },
];

function layout(inner: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>搜索 - DJ呦呦</title></head><body>
<div id="top_banner_bg"></div>${inner}<div class="footer">DJ呦呦 djuu.com</div></body></html>`;
}

/** Today's search page: cards `a[href="/play/{id}.html"][title]` with a cover, one relative and one absolute address. */
export function searchPage(items = SEARCH_ITEMS, { page = 1, nextPage = false } = {}): string {
  const cards = items
    .map((item, i) => {
      const href = i === 1 ? `https://www.djuu.com/play/${item.id}.html` : `/play/${item.id}.html`;
      return `<li class="music_item"><a href="${href}" target="_Pt" title="${item.title}"><img src="${item.cover}" alt=""></a><span class="hits">${1000 - i}</span></li>`;
    })
    .join("\n");
  const pager = `<div class="page"><a href="/search?musicname=x&cid=0&list=1&page=${page}">${page}</a>${
    nextPage ? `<a href="/search?musicname=x&cid=0&list=1&page=${page + 1}">下一页</a>` : ""
  }</div>`;
  return layout(`<ul class="search_list">${cards}</ul>${pager}`);
}

/** The older shape: rows `tr.sbg` in `.list_musiclist`, after a header row; links by text. */
export function olderSearchPage(): string {
  const rows = SEARCH_ITEMS.map(
    (item) => `<tr class="sbg"><td><input type="checkbox" class="sortid" value="${item.id}"></td><td><a href="/play/${item.id}.html" target="_Pt">${item.title}</a></td><td>2026/10/0${item.id.slice(-1)}</td></tr>`,
  ).join("");
  return layout(`<table class="list_musiclist"><tr><th>选</th><th>舞曲名称</th><th>日期</th></tr>${rows}</table>`);
}

export const emptySearchPage = (): string => layout(`<table class="list_musiclist"><tr><th>选</th><th>舞曲名称</th><th>日期</th></tr></table><p>没有找到相关舞曲</p>`);

/** The site redesigned: items are cards with data attributes and no /play/ link. */
export const changedLayoutPage = (): string =>
  layout(`<section class="songs-grid"><div class="song-card" data-song="201001"><span>周杰伦 - 夜曲</span></div></section>`);

/** Unclosed tags everywhere (the browser forgives it; so must we). */
export const malformedSearchPage = (): string =>
  `<html><body><ul class="search_list"><li><a href="/play/201001.html" title="周杰伦 - 夜曲(DJ阿福 Rmx)"><img src="/c/1.jpg"><li><a href="/play/201002.html" title="DJ小鱼-夜曲串烧"><img src="/c/2.jpg"><div class="page"><a href="?page=2">下一页`;

/** Pages of each fixture category (`/djlist/{cid}_{1..3}.html`). */
export const CATEGORY_PAGES = 3;

/**
 * The category page's other shape: `div.isgood_list p.t1 a[title]`. Page N is asked as
 * `/djlist/{cid}_{N}.html`, but its pager links pages in three parts, `/djlist/{cid}_{x}_{N}.html`
 * (SOURCES.md), and a page's own number in two.
 */
export function categoryPage(cid: string, page: number, next: boolean): string {
  const items = [1, 2].map((n) => `<div class="isgood_list"><p class="t1"><a href="/play/30${page}00${n}.html" title="DJ${n}号-慢摇串烧 第${page}页"></a></p></div>`).join("");
  const pager = [
    `<a href="/djlist/${cid}_1.html">首页</a>`,
    ...(page > 1 ? [`<a href="/djlist/${cid}_1_${page - 1}.html">上一页</a>`] : []),
    `<span class="current">${page}</span>`,
    ...(next ? [`<a href="/djlist/${cid}_1_${page + 1}.html">下一页</a>`, `<a href="/djlist/${cid}_1_${CATEGORY_PAGES}.html">尾页</a>`] : []),
  ].join("");
  return layout(`${items}<div class="page">${pager}</div>`);
}

export function playPage(id: string, { file = "c4/22/2026/ab12cd34", heading = "周杰伦 - 夜曲(DJ阿福 Electro Rmx 2025 粤语)" }: { file?: string; heading?: string } = {}): string {
  return layout(`<div class="play_background"><img src="/upload/cover/${id}.jpg"></div>
<h1>${heading}</h1>
<script type="text/javascript">
var music = {file:'${file}', name:'周杰伦 - 夜曲(DJ阿福 Electro Rmx 2025 粤语)', id:${id}, duration:'04:12', uid: 8};
var player = new DjPlayer(music);
</script>`);
}

export const rankingAnswer = {
  code: 1,
  msg: "ok",
  time: 1795000000,
  data: {
    total: 3,
    list: [
      { id: 501, title: "DJ小鱼-全中文国粤语Club音乐串烧", coverImgShow: "https://img.djuu.com/c/501.jpg", duration: 3720, hits_num: 99821, size: 120_000_000, create_time: 1790000000 },
      { id: 502, title: "周杰伦 - 夜曲(DJ阿福 Rmx)", coverImgShow: "https://img.djuu.com/c/502.jpg", duration: 252, hits_num: 5321, size: 2_100_000, create_time: 1790000100 },
      { id: 503, title: "林俊杰 - 江南(DJ何鹏 Remix)", coverImgShow: "", duration: "241", hits_num: 321, size: "1900000", create_time: 1790000200 },
    ],
  },
};

/** A djuu with today's pages: search (夜曲 page 1 has a next page, page 2 is the last), a category, play pages, the app API. */
export function serveDjuu(site: FixtureSite): FixtureSite {
  return site
    .route("/search", (req, res, match) => {
      const query = new URL(req.url ?? "/", "http://x").searchParams;
      const keyword = query.get("musicname");
      const page = Number(query.get("page"));
      if (keyword !== "夜曲") return html(emptySearchPage())(req, res, match);
      const items = page === 1 ? SEARCH_ITEMS : [{ id: "201004", title: "DJ小鱼 - 夜曲第二页(Rmx)", cover: "/c/4.jpg" }];
      return html(searchPage(items, { page, nextPage: page === 1 }))(req, res, match);
    })
    .route(/^\/djlist\/(\d+)_(\d+)\.html$/, (req, res, match) => html(categoryPage(match![1]!, Number(match![2]), Number(match![2]) < CATEGORY_PAGES))(req, res, match))
    .route(/^\/play\/(\d+)\.html$/, (req, res, match) => (match![1] === "404404" ? status(404, "Not Found")(req, res, match) : html(playPage(match![1]!))(req, res, match)))
    .route("/app/v1/music/playRankings", json(rankingAnswer))
    .route("/app/v1/music/listen", (req, res, match) => {
      const id = new URL(req.url ?? "/", "http://x").searchParams.get("id");
      return json({ code: 1, msg: "ok", data: { listenurl: `https://mp4.djuu.com/c4/22/2026/${id}.m4a?t=1795000000`, vipListenUrl: "" } })(req, res, match);
    });
}

/** The app API's songs for 夜曲: 25 in all, so page 1 (20 rows) has a next page and page 2 is the last. */
export const API_SEARCH_ANSWER = {
  code: 1,
  msg: "ok",
  time: 1795000000,
  data: {
    total: 25,
    list: [
      { id: 201001, title: "周杰伦 - 夜曲(DJ阿福 Electro Rmx 2025 粤语)", coverImgShow: "https://img.djuu.com/c/201001.jpg", duration: 252, hits_num: 5321, size: 2_100_000, create_time: 1790000100 },
      { id: 201002, title: "【DJUU独家】南宁DJ小鱼-全中文国粤语Club音乐夜曲串烧", coverImgShow: "https://img.djuu.com/c/201002.jpg", duration: "3720", hits_num: 99821, size: "120000000", create_time: 1790000000 },
    ],
  },
};

export const API_DETAILS_ANSWER = {
  code: 1,
  msg: "ok",
  time: 1795000000,
  data: { id: 201001, title: "周杰伦 - 夜曲(DJ阿福 Electro Rmx 2025 粤语)", coverImgShow: "https://img.djuu.com/c/201001.jpg", duration: 252, hits_num: 5321, size: 2_100_000, create_time: 1790000100 },
};

/**
 * The app API's search and details (registered before `serveDjuu`, whose site has neither: its
 * searches fall back to the web pages). The search answer arrives JSON-encoded twice, as some
 * of the API's answers do.
 */
export function serveDjuuApi(site: FixtureSite): FixtureSite {
  return site
    .route("/app/v1/music/search", (req, res, match) => {
      const query = new URL(req.url ?? "/", "http://x").searchParams;
      if (query.get("keywords") !== "夜曲") return json({ code: 1, msg: "ok", data: { total: 0, list: [] } })(req, res, match);
      const answer = query.get("page") === "1" ? API_SEARCH_ANSWER : { ...API_SEARCH_ANSWER, data: { total: 25, list: [API_SEARCH_ANSWER.data.list[0]] } };
      return json(JSON.stringify(answer))(req, res, match);
    })
    .route("/app/v1/music/details", json(API_DETAILS_ANSWER));
}
