import { escapeHtml, type SiteRequest } from "./harness.js";

/** 清风DJ (ddddj.com): lists of `div.isgood_list` with data-* attributes, 20 a page, signed streams. Shared by its test and the recorded corpus (issue 22). */

export interface Row {
  id: string;
  name: string;
  artist?: string;
  cover?: string;
  audio?: string;
}

export const signed = (id: string) => `https://pan.urlkj.com/play/20261001/${id}.mp3?t=1790000000&sign=ab${id}`;

export function listPage(title: string, rows: Row[]): string {
  const items = rows
    .map(
      (r) => `      <div class="isgood_list" data-id="${r.id}" data-name="${escapeHtml(r.name)}"${r.artist !== undefined ? ` data-artist="${escapeHtml(r.artist)}"` : ""}${r.cover ? ` data-cover="${r.cover}"` : ""}${r.audio ? ` data-audio="${escapeHtml(r.audio)}"` : ""}>
        <span class="num"></span><a href="/play/${r.id}.html" target="_blank" title="${escapeHtml(r.name)}">${escapeHtml(r.name)}</a>
        <span class="time">2026-10-01</span>
      </div>`,
    )
    .join("\n");
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title} - 清风DJ</title></head>
<body><div class="header"><a href="/">清风DJ</a><form action="/search.html"><input name="keys"></form></div>
  <div class="isgood"><div class="isgood_title">${title}</div>
${items}
  </div>
  <div class="page"><a href="#">上一页</a><a href="#">下一页</a></div>
</body></html>`;
}

export const rows = (prefix: string, count: number, from = 1): Row[] =>
  Array.from({ length: count }, (_, i) => {
    const id = String(from + i + (prefix === "s" ? 50000 : 60000));
    return { id, name: `DJ阿福 - 夜店${prefix}${from + i}(Club Mix 2026)`, artist: "DJ阿福", cover: `https://img.ddddj.com/cover/${id}.jpg`, audio: signed(id) };
  });

export function route(req: SiteRequest) {
  if (req.path === "/search.html" && req.query.get("keys") === "夜店") {
    const page = Number(req.query.get("page") ?? "1");
    if (page === 1) return { body: listPage("搜索", rows("s", 20)) };
    if (page === 2) {
      // The last page: one item with no data-artist (the artist is in the name) and no address.
      const last = rows("s", 2, 21);
      last.push({ id: "50099", name: "小阳 - 不再犹豫(DJ版)", cover: "https://img.ddddj.com/cover/50099.jpg" });
      return { body: listPage("搜索", last) };
    }
    return { body: listPage("搜索", []) };
  }
  if (req.path === "/ranks/sole/2-0-0-0-1.html") return { body: listPage("独家中文", rows("r", 20)) };
  if (req.path === "/ranks/sole/2-0-0-0-2.html") return { body: listPage("独家中文", rows("r", 5, 21)) };
  if (req.path === "/genre/mycs/0-0-0-1-1.html") return { body: listPage("慢摇串烧", rows("g", 7)) };
  if (req.path === "/play/50099.html") {
    return { body: `<html><head><title>不再犹豫</title></head><body><h1>小阳 - 不再犹豫(DJ版)</h1><script>var playid = "50099";\nvar playurl = "https://pan.urlkj.com/play/20261002/50099.mp3?t=1790000001&sign=cafe";\n</script></body></html>` };
  }
  return undefined;
}
