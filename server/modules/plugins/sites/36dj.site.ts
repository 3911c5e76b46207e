import { escapeHtml, type SiteRequest } from "./harness.js";

/** 36DJ (Empire CMS): `li` rows with input[name=check], search by POST, `var info = {"playurl": …}`. Shared by its test and the recorded corpus (issue 22). */

export const row = (id: number, name: string) =>
  `<li><input type="checkbox" name="check" value="${id}" class="check"><span class="num">${id % 100}</span><a href="/play/${id}.html" target="_blank" title="${escapeHtml(name)}">${escapeHtml(name)}</a><span class="time">2026-10-01</span><a href="/down/${id}.html">下载</a></li>`;

export const listPage = (title: string, rows: [number, string][]) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}_36DJ舞曲网</title></head><body>
<div class="nav"><a href="/xc/">串烧舞曲</a><a href="/zw/">中文舞曲</a></div>
<div class="list_box"><ul class="list">
${rows.map(([id, n]) => row(id, n)).join("\n")}
</ul></div>
<div class="page"><a href="/xc/2.html">2</a></div>
</body></html>`;

export const songs = (count: number, from: number): [number, string][] => Array.from({ length: count }, (_, i) => [from + i, `DJ阿远 - 说散就散(ProgHouse ${from + i})`]);

export function route(req: SiteRequest) {
  if (req.path === "/e/search/index.php" && req.method === "POST") {
    const form = new URLSearchParams(req.body);
    if (form.get("classid") !== "1" || form.get("show") !== "title" || form.get("keyboard") !== "说散就散") return { body: listPage("搜索", []) };
    const rows = songs(3, 8801);
    rows.push([8801, "DJ阿远 - 说散就散(ProgHouse 8801)"]); // the same song twice on the page
    rows.push([8899, "说散就散 慢摇版"]);
    return { body: listPage("搜索结果", rows) };
  }
  if (req.path === "/xc/") return { body: listPage("串烧舞曲", songs(30, 7000)) };
  if (req.path === "/xc/2.html") return { body: listPage("串烧舞曲", songs(4, 7030)) };
  if (req.path === "/xc/3.html") return undefined;
  if (req.path === "/play/8801.html") {
    return { body: `<html><head><title>说散就散_36DJ</title></head><body><h1>DJ阿远 - 说散就散</h1><script type="text/javascript">var info = {"id":"8801","title":"DJ阿远 - 说散就散","playurl":"2026\\/1001\\/8801.m4a","classid":"2"};</script></body></html>` };
  }
  return undefined;
}
