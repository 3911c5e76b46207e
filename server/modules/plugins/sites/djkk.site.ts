import { escapeHtml, type SiteRequest } from "./harness.js";

/** DJKK (pc.djkk.cn, a CSCms site): `li` rows with /dance/{id}.html links, a JSON player answer. Shared by its test and the recorded corpus (issue 22). */

export const row = (id: number, name: string) => `
      <li>
        <div class="checkbox"><input type="checkbox" name="id" value="${id}"></div>
        <a class="sort" href="/dance/lists/4.html">国内舞曲</a>
        <a class="name" href="/dance/${id}.html" title="${escapeHtml(name)}" target="_blank">${escapeHtml(name)}</a>
        <span class="format">MP3</span><span class="hits">1024</span>
      </li>`;

export const names = (count: number, from: number) => Array.from({ length: count }, (_, i) => [from + i, `[MP3]DJ小贝 - 情人桥 Remix ${from + i}`] as const);

export const page = (body: string, size?: number) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>DJKK</title></head><body>
  <div class="header"><a href="/">DJKK</a></div>
${body}
  <div id="pages"${size ? ` data-size="${size}"` : ""}><a href="#">下一页</a></div>
</body></html>`;

export const homeTab = (n: number) => `<div class="layui-tab-item${n === 0 ? " layui-show" : ""}"><ul>${row(900 + n, `DJ榜${n} - 榜单歌曲${n}`)}${row(910 + n, `榜单单曲${n}`)}</ul></div>`;

export function route(req: SiteRequest) {
  if (req.path === "/dance/search.html" && req.query.get("key") === "情人桥") {
    const p = Number(req.query.get("page"));
    const rows = p === 1 ? names(34, 1000) : names(3, 1034);
    return { body: page(`<ul class="infolist">${rows.map(([id, n]) => row(id, n)).join("")}</ul>`, 34) };
  }
  if (req.path === "/ajax/danceplayer" && req.method === "POST") {
    const form = new URLSearchParams(req.body);
    if (form.get("id") === "777") return { body: "<html><body>请先登录</body></html>" };
    if (req.headers["content-type"] !== "application/x-www-form-urlencoded" || form.get("ids") !== "" || !req.headers.referer?.endsWith(`/dance/${form.get("id")}.html`)) {
      return { headers: { "content-type": "application/json" }, body: JSON.stringify({ code: 0, msg: "非法请求" }) };
    }
    return { headers: { "content-type": "application/json" }, body: JSON.stringify({ code: 1, msg: "ok", playurl: `https://cdn.pgdjz.fun/dance/2026/10/${form.get("id")}.m4a?auth_key=1790000000-0-0-abc` }) };
  }
  if (req.path === "/") {
    const songs = `<div class="layui-tab"><ul class="layui-tab-title">${["推荐", "最新", "热门", "收藏", "下载"].map((t) => `<li>${t}</li>`).join("")}</ul><div class="layui-tab-content">${[0, 1, 2, 3, 4].map(homeTab).join("")}</div></div>`;
    const videos = `<div class="layui-tab"><div class="layui-tab-content"><div class="layui-tab-item"><ul><li><a href="/video/5.html" title="视频">视频</a></li></ul></div></div></div>`;
    return { body: page(songs + videos) };
  }
  if (req.path === "/dance/lists/63.html") return { body: page(`<div class="musicboxlist"><ul>${names(30, 2000).map(([id, n]) => row(id, n)).join("")}</ul></div>`) };
  if (req.path === "/dance/lists/63/2.html") return { body: page(`<div class="musicboxlist"><ul>${names(4, 2030).map(([id, n]) => row(id, n)).join("")}</ul></div>`) };
  if (req.path === "/dance/1000.html") {
    return { body: page(`<div class="musicpic"><div class="img"><img src="https://img.djkk.cn/cover/1000.jpg"></div></div><div class="tags"><span>所属分类：国内舞曲</span><span>播放时长：01:02:03</span></div>`) };
  }
  return undefined;
}
