/**
 * A djuu for the collector's tests, in the shapes of SOURCES.md: category lists
 * `/djlist/{cid}_{page}.html` (each linking its next page as `/djlist/{cid}_{x}_{page+1}.html`)
 * whose every page lists three items of its own and one item shared
 * by every category (dedup across units), and the app API's charts (`playRankings`).
 * Some cids fail the way the site does: 403, a changed layout, no answer at all.
 */
import type { CollectUnit } from "../../db/schema/index.js";
import { hang, html, json, status, withLatency, type FixtureHandler, type FixtureSite } from "../../testing/fixture-site.js";
import { createSourceAdapters } from "../sources/registry.js";
import type { SourceAdapterEntry } from "../sources/source-provider.js";

/** Pages each category has (others: 2). */
export const CATEGORY_PAGES: Record<string, number> = { "2": 5, "1": 1 };
export const BLOCKED_CID = "13";
export const CHANGED_CID = "12";
export const HANGING_CID = "14";

export const categoryItemIds = (cid: string, page: number) => [1, 2, 3].map((n) => `${cid}${page}0${n}`);
export const sharedItemId = (page: number) => `900${page}`;

function categoryPage(cid: string, page: number): string {
  const ids = [...categoryItemIds(cid, page), sharedItemId(page)];
  const items = ids.map((id) => `<li><a href="/play/${id}.html" title="DJ${cid}号 - 舞曲${id}"><img src="/c/${id}.jpg"></a></li>`).join("");
  const next = page < (CATEGORY_PAGES[cid] ?? 2) ? `<a href="/djlist/${cid}_1_${page + 1}.html">下一页</a>` : "";
  return `<!DOCTYPE html><html><body><ul class="music_list">${items}</ul><div class="page">${next}</div></body></html>`;
}

export interface RankedSong {
  id: number;
  title: string;
  duration: number;
}

/** rankType 1 (热门: day and week) and 2 (推荐: month and quarter); long songs are mixes. */
export const CHARTS: Record<string, RankedSong[]> = {
  "1": [
    { id: 501, title: "DJ小鱼-全中文国粤语Club音乐串烧", duration: 3720 },
    { id: 502, title: "周杰伦 - 夜曲(DJ阿福 Rmx)", duration: 252 },
    { id: 503, title: "林俊杰 - 江南(DJ何鹏 Remix)", duration: 241 },
  ],
  "2": [
    { id: 601, title: "DJ阿远-慢摇串烧精选", duration: 4100 },
    { id: 602, title: "陈奕迅 - 浮夸(DJ版)", duration: 230 },
  ],
};

export interface DjuuCollectSite {
  /** Every answer waits this long (the kill test: pages in flight). */
  latencyMs?: number;
  /** Serve the failing cids as failures (default); off: they list like any other. */
  failures?: boolean;
}

/** Registers the collector's djuu on `site` (the charts read `CHARTS` at each request: tests change it). */
export function serveCollectDjuu(site: FixtureSite, { latencyMs = 0, failures = true }: DjuuCollectSite = {}): FixtureSite {
  const slow = (handler: FixtureHandler): FixtureHandler => (latencyMs > 0 ? withLatency(latencyMs, handler) : handler);
  return site
    .route(/^\/djlist\/(\d+)_(\d+)\.html$/, (req, res, match) => {
      const cid = match![1]!;
      if (!failures) return slow(html(categoryPage(cid, Number(match![2]))))(req, res, match);
      if (cid === BLOCKED_CID) return status(403, "Forbidden")(req, res, match);
      if (cid === CHANGED_CID) return html(`<html><body><section class="songs-grid"><div class="song-card" data-song="1">新版</div></section></body></html>`)(req, res, match);
      if (cid === HANGING_CID) return hang(req, res, match);
      return slow(html(categoryPage(cid, Number(match![2]))))(req, res, match);
    })
    .route("/app/v1/music/playRankings", (req, res, match) => {
      const rankType = new URL(req.url ?? "/", "http://x").searchParams.get("rankType") ?? "";
      const list = (CHARTS[rankType] ?? []).map((song) => ({ ...song, coverImgShow: `https://img.djuu.com/c/${song.id}.jpg`, size: song.duration * 8000, hits_num: 10 }));
      return slow(json({ code: 1, msg: "ok", data: { total: list.length, list } }))(req, res, match);
    });
}

/** The djuu adapter pointed at the fixture site (no rate gap; a short timeout for the hanging cid). */
export function djuuEntry(site: { url: string; host: string }, { timeoutMs = 1_000 } = {}): { entry: SourceAdapterEntry; close(): void } {
  const built = createSourceAdapters({
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: { warn() {} },
    overrides: { djuu: { baseUrl: site.url, apiBaseUrl: `${site.url}/app/v1`, allowAddresses: [site.host], minIntervalMs: 0, timeoutMs } },
  });
  return { entry: built.sources.find((s) => s.code === "djuu")!, close: built.close };
}

export const category = (key: string, maxPages = 3): CollectUnit => ({ type: "category", key, name: `分类${key}`, maxPages });
export const chart = (period: "day" | "week" | "month" | "quarter", kind: "mix" | "single"): CollectUnit => ({ type: "chart", period, kind, maxPages: 1 });

/** The (unit, page) pairs a plan walks on this site when nothing fails. */
export function expectedPages(plan: CollectUnit[]): { unitIndex: number; page: number }[] {
  return plan.flatMap((unit, unitIndex) => {
    const pages = unit.type === "chart" ? 1 : Math.min(unit.maxPages, CATEGORY_PAGES[unit.key] ?? 2);
    return Array.from({ length: pages }, (_, i) => ({ unitIndex, page: i + 1 }));
  });
}

const RANK_TYPE = { day: "1", week: "1", month: "2", quarter: "2" } as const;

/** The item addresses a plan finds on this site, each once. */
export function expectedUrls(siteUrl: string, plan: CollectUnit[]): Set<string> {
  const urls = new Set<string>();
  const play = (id: string | number) => `${siteUrl}/play/${id}.html`;
  for (const [unitIndex, unit] of plan.entries()) {
    if (unit.type === "chart") {
      for (const song of CHARTS[RANK_TYPE[unit.period]] ?? []) if ((song.duration >= 1800) === (unit.kind === "mix")) urls.add(play(song.id));
      continue;
    }
    for (const { page } of expectedPages(plan).filter((p) => p.unitIndex === unitIndex)) {
      for (const id of [...categoryItemIds(unit.key, page), sharedItemId(page)]) urls.add(play(id));
    }
  }
  return urls;
}
