import iconv from "iconv-lite";
import { escapeHtml, type SiteAnswer, type SiteRequest } from "./harness.js";

/**
 * 72DJ舞曲网: GBK pages behind a cookie challenge. The fixture serves a page only to a request
 * carrying r = secret − 100 and t = token; anything else gets the challenge (Set-Cookie secret,
 * token) and a short page. Every page is GBK bytes.
 * Shared by its test and the recorded corpus (issue 22).
 */

export const SECRET = "9007199254741093"; // past 2^53: the answer must be exact
export const TOKEN = "a1b2c3d4e5f6";
export const ANSWER = "9007199254740993";

export const gbk = (html: string, headers: Record<string, string | string[]> = {}): SiteAnswer => ({ headers: { "content-type": "text/html; charset=gb2312", ...headers }, body: iconv.encode(html, "gbk") });

export const challenge = (): SiteAnswer =>
  gbk(`<html><head><title>安全检查</title></head><body><script>location.reload();</script>正在进行安全检查……</body></html>`, {
    "set-cookie": [`secret=${SECRET}; path=/`, `token=${TOKEN}; path=/`, "ASPSESSIONIDQQ=XYZ; path=/"],
  });

export const passed = (req: SiteRequest) => {
  const cookies = Object.fromEntries(String(req.headers.cookie ?? "").split(/;\s*/).map((c) => c.split("=") as [string, string]));
  return cookies.r === ANSWER && cookies.t === TOKEN;
};

export const shell = (title: string, body: string) => `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"><html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312" /><title>${title} - 72DJ舞曲网 www.72dj.com</title></head><body>
<div class="bangNav"><div class="bangNavBd"><ul>
<li><a href="/top/">总排行榜</a></li>
<li><a href="/top/zwwq.htm">中文舞曲榜</a></li>
<li><a href="http://www.72dj.com/top/cs.htm">串烧舞曲榜</a></li>
</ul></div></div>
${body}
</body></html>`;

export const chart = (songs: [number, string][]) =>
  `<ul id="playlist">${songs.map(([id, name]) => `<li><dl><dt><input type="checkbox" name="id" value="${id}" /></dt><dd><a href="/play/${id}.htm" title="${escapeHtml(name)}" target="72djplay">${escapeHtml(name)}</a></dd><dd class="hits">3${id}</dd></dl></li>`).join("\n")}</ul>`;

export const CHINESE = [
  [32853, "湛江Dj小帅 - 一路向北(粤语Remix)"],
  [32854, "DJ阿福 - 夜店慢摇串烧"],
  [32855, "伤感情歌 连版"],
] as [number, string][];
export const MIXES = [
  [40001, "南宁DJ小龙 - 一路向北(Electro Mix)"],
  [32853, "湛江Dj小帅 - 一路向北(粤语Remix)"], // on two charts: found once
] as [number, string][];

export function route(req: SiteRequest): SiteAnswer | undefined {
  if (req.path === "/play/666.htm") return challenge(); // a page the challenge never lets through
  if (!passed(req)) return challenge();
  if (req.path === "/top/") return gbk(shell("DJ舞曲排行榜", chart(CHINESE)));
  if (req.path === "/top/zwwq.htm") return gbk(shell("中文舞曲榜", chart(CHINESE)));
  if (req.path === "/top/cs.htm") return gbk(shell("串烧舞曲榜", chart(MIXES)));
  if (req.path === "/play/32853.htm") {
    return gbk(shell("湛江Dj小帅 - 一路向北(粤语Remix)", `<script type="text/javascript">var p_id="32853";var p_n="湛江Dj小帅 - 一路向北(粤语Remix)";var danceFilePath="2016/7201/2602/32853";</script><script src="/flash/mp.js"></script>`));
  }
  if (req.path === "/play/404.htm") return gbk(`<html><head><TITLE>无法找到该页</TITLE></head><body></body></html>`);
  return undefined;
}
