/**
 * The streamed-search bench's four DJ sites (bench/search-stream.ts), in a process and a session
 * of their own, which the bench runs above the load (autogroup nice -10): they stand for other
 * machines, whose latency does not wait for this machine's cores. On the bench's own thread, and
 * then on a thread of the bench's process (which the bench lowers with its load), their arrival
 * times and latency timers waited behind the fetch clients and Chromium, and that wait was
 * counted as the server's (a 50 ms site answered 72 ms after the request arrived at p95).
 * Forked with `FixtureSitesInput` as JSON in argv[2]; sends `{ ready: [{ code, latency, url }] }`
 * once listening, then `FixtureAnswered` for each search answered. Times are on the wall clock's
 * scale (performance.timeOrigin + now()): processes have their own origins.
 */
import { API_SEARCH_ANSWER, SEARCH_ITEMS, searchPage } from "../server/modules/sources/adapters/djuu.fixtures.js";
import { html, json, startFixtureSite, withLatency } from "../server/testing/fixture-site.js";

export interface FixtureSitesInput {
  latencies: number[];
  viaApi: boolean;
}
export interface FixtureAnswered {
  code: string;
  keyword: string;
  /** The keyword's first request to this site (the app API's 404 in page mode, else this one). */
  firstAt: number;
  /** The request answered after the latency. */
  arrivedAt: number;
  /** From its arrival to its last byte: the site's own time. */
  servedMs: number;
}

const { latencies, viaApi } = JSON.parse(process.argv[2]!) as FixtureSitesInput;
// The bench gone, nothing is left to answer.
process.on("disconnect", () => process.exit(0));
const page = searchPage(SEARCH_ITEMS);
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
      const first = site.hits.find((hit) => (hit.query.get("keywords") ?? hit.query.get("musicname")) === keyword)!;
      const answered: FixtureAnswered = { code, keyword, firstAt: performance.timeOrigin + first.at, arrivedAt: performance.timeOrigin + arrived, servedMs: performance.now() - arrived };
      process.send!(answered);
    });
    return answer(req, res, match);
  });
  ready.push({ code, latency, url: site.url });
}
process.send!({ ready });
