/**
 * The streamed-search bench's four DJ sites (bench/search-stream.ts), on a thread of their own:
 * on the bench's main thread, their arrival times and latency timers waited behind the fetch
 * clients and Chromium's messages in the burst, and that wait was counted as the server's.
 * Posts `{ ready: [{ code, url }] }` once listening, then `{ code, keyword, arrivedAt, servedMs }`
 * for each search answered; asked "first-requests", each keyword's first request to each site.
 * Times are on the wall clock's scale (performance.timeOrigin + now()): threads have their own origins.
 */
import { parentPort, workerData } from "node:worker_threads";
import { API_SEARCH_ANSWER, SEARCH_ITEMS, searchPage } from "../server/modules/sources/adapters/djuu.fixtures.js";
import { html, json, startFixtureSite, withLatency, type FixtureSite } from "../server/testing/fixture-site.js";

export interface FixtureSitesInput {
  latencies: number[];
  viaApi: boolean;
}
export interface FirstRequest {
  code: string;
  keyword: string;
  at: number;
}
export interface FixtureAnswered {
  code: string;
  keyword: string;
  arrivedAt: number;
  servedMs: number;
}

const { latencies, viaApi } = workerData as FixtureSitesInput;
const port = parentPort!;
const page = searchPage(SEARCH_ITEMS);
const sites: FixtureSite[] = [];
const ready: { code: string; latency: number; url: string }[] = [];
for (const latency of latencies) {
  const code = `s${latency}`;
  const site = await startFixtureSite();
  const answer = withLatency(latency, viaApi ? json(API_SEARCH_ANSWER) : html(page));
  site.route(viaApi ? "/app/v1/music/search" : "/search", (req, res, match) => {
    const arrived = performance.now();
    const query = new URL(req.url ?? "/", "http://fixture").searchParams;
    const keyword = query.get(viaApi ? "keywords" : "musicname") ?? "";
    res.on("finish", () => {
      const answered: FixtureAnswered = { code, keyword, arrivedAt: performance.timeOrigin + arrived, servedMs: performance.now() - arrived };
      port.postMessage(answered);
    });
    return answer(req, res, match);
  });
  sites.push(site);
  ready.push({ code, latency, url: site.url });
}
port.on("message", async (message) => {
  if (message === "first-requests") {
    // Each keyword's first request to each site (the app API's 404 in page mode), on the wall clock's scale.
    const first: FirstRequest[] = [];
    sites.forEach((site, i) => {
      const seen = new Set<string>();
      for (const hit of site.hits) {
        const keyword = hit.query.get("keywords") ?? hit.query.get("musicname");
        if (keyword === null || seen.has(keyword)) continue;
        seen.add(keyword);
        first.push({ code: ready[i]!.code, keyword, at: performance.timeOrigin + hit.at });
      }
    });
    port.postMessage({ first });
  }
  if (message === "close") {
    for (const site of sites) await site.close();
    port.close();
  }
});
port.postMessage({ ready });
