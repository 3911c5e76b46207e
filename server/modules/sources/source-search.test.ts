/**
 * Searching external sources through the search service: real adapters on local fixture sites
 * (djuu's code adapter; a second site read by the generic adapter), their health and circuit
 * breaker, the merge and the short cache.
 */
import { searchQuerySchema, type SearchQueryParsed, type SearchResult } from "@contracts/search";
import { afterEach, describe, expect, it } from "vitest";
import { inProcessBus } from "../../events/bus.js";
import { registryFollowing } from "../../lib/cache-tags.js";
import { adjustableClock } from "../../lib/clock.js";
import { hang, html, resetMidBody, status, type FixtureHandler } from "../../testing/fixture-site.js";
import { captureLog } from "../../testing/log-capture.js";
import { searchAnswers } from "../search/answers.js";
import { searchService } from "../search/service.js";
import { SEARCH_ITEMS, searchPage } from "./adapters/djuu.fixtures.js";
import { externalSearch } from "./search-sources.js";
import { staticSourceDirectory } from "./directory.js";
import { djuuSource, mirrorSource, type FixtureSource } from "./source-search.fixtures.js";

const open: FixtureSource[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function sources(...made: Promise<FixtureSource>[]): Promise<FixtureSource[]> {
  const list = await Promise.all(made);
  open.push(...list);
  return list;
}

const query = (keyword = "夜曲", extra: Record<string, string> = {}) => searchQuerySchema.parse({ keyword, ...extra });

/** The service as createServices builds it for these sources (cache and breaker included). */
function searchOver(list: FixtureSource[], breaker?: { failureThreshold?: number; coolDownMs?: number }) {
  const clock = adjustableClock();
  const log = captureLog();
  const bus = inProcessBus();
  const external = externalSearch({ directory: staticSourceDirectory(list.map((s) => s.entry)), clock, logger: log.logger, breaker });
  const uncached = searchService(external.providers);
  const answers = searchAnswers(uncached, { caches: registryFollowing(bus), now: () => clock().getTime() });
  return {
    clock,
    log,
    bus,
    health: external.health,
    /** The route's kept answers, read back as the search result. */
    cached: { search: async (input: SearchQueryParsed) => (JSON.parse((await answers.get(input)).body.toString()) as { data: SearchResult }).data },
    uncached,
  };
}

/** A /search that fails while `failing.now` is true, and answers djuu's page otherwise. */
function switchable(failure: FixtureHandler) {
  const failing = { now: true };
  const handler: FixtureHandler = (req, res, match) => (failing.now ? failure(req, res, match) : html(searchPage(SEARCH_ITEMS))(req, res, match));
  return { failing, install: (site: { route(p: string, h: FixtureHandler): unknown }) => void site.route("/search", handler) };
}

describe("search across sources", () => {
  it("answers with the others' results within a hanging source's timeout + 100 ms, naming it", async () => {
    const [djuu, mirror] = await sources(
      djuuSource((site) => site.route("/search", hang), 400),
      mirrorSource(undefined, 3_000),
    );
    const { uncached } = searchOver([djuu, mirror]);
    const started = performance.now();
    const result = await uncached.search(query());
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(400 + 100);
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(result.errors).toEqual([{ source: "djuu", msg: "搜索超时" }]);
    expect(result.list.map((i) => i.id)).toEqual(["mirror:201001", "mirror:201003", "mirror:201002"]);
    expect(djuu.searches()).toBe(1);
  });

  it("shows each hit with its site's name, logo, source page and our play route", async () => {
    const [djuu] = await sources(djuuSource());
    const result = await searchOver([djuu]).uncached.search(query());
    expect(result.list[0]).toEqual({
      id: "djuu:201001",
      name: "夜曲(DJ阿福 Electro Rmx 2025 粤语)",
      artist: "周杰伦",
      cover: `${djuu.site.url}/upload/cover/201001.jpg`,
      palyurl: "/api/forntend/source-play?source=djuu&id=201001",
      playtype: "mp3",
      kind: "single",
      channel: "djuu",
      website: "DJUU",
      websitelogo: "/static/sites/djuu.png",
      category: "",
      cidurl: "",
      time: 0,
      weburl: `${djuu.site.url}/play/201001.html`,
      url: `${djuu.site.url}/play/201001.html`,
      vipdown: "0",
      price: 0,
      view_count: 0,
      source: "djuu",
    });
    // The site shows a next page and states no total: at least what was seen, plus one.
    expect(result).toMatchObject({ total: 4, capped: true, errors: [] });
  });

  it("asks each site for its own page n; without the site's total, the total is at least what was seen", async () => {
    const [djuu] = await sources(djuuSource());
    const result = await searchOver([djuu]).uncached.search(query("夜曲", { page: "2" }));
    expect(djuu.site.hits.at(-1)!.query.get("page")).toBe("2");
    expect(result).toMatchObject({ page: 2, total: 2, capped: true, errors: [] });
    expect(result.list.map((i) => i.id)).toEqual(["djuu:201004"]);
  });

  it("merges two sites: the same work once (first source kept), ranked by closeness to the keyword", async () => {
    const mirrorItems = [
      { id: "9001", title: "DJ小鱼 - 夜曲串烧精选", cover: "/c/9001.jpg" },
      { id: "9002", title: "周杰伦 - 夜曲(DJ阿福 Electro Rmx 2025 粤语)", cover: "/c/9002.jpg" },
      { id: "9003", title: "夜曲", cover: "/c/9003.jpg" },
    ];
    const [djuu, mirror] = await sources(
      djuuSource(),
      mirrorSource((site) => site.route("/search", html(searchPage(mirrorItems)))),
    );
    const result = await searchOver([djuu, mirror]).uncached.search(query());
    expect(result.list.map((i) => [i.id, i.website])).toEqual([
      ["mirror:9003", "镜像DJ"], // the title is the keyword
      ["djuu:201001", "DJUU"], // starts with it: nearer the top of its site's list first…
      ["djuu:201003", "DJUU"],
      ["mirror:9001", "镜像DJ"], // …then djuu first between equal places
      ["djuu:201002", "DJUU"], // contains it
    ]);
    // mirror:9002 is djuu:201001 again (same artist and title): dropped.
  });

  it("asks only the source a channel names", async () => {
    const [djuu, mirror] = await sources(djuuSource(), mirrorSource());
    const result = await searchOver([djuu, mirror]).uncached.search(query("夜曲", { channelid: "mirror" }));
    expect(result.list.every((i) => i.source === "mirror")).toBe(true);
    expect([djuu.searches(), mirror.searches()]).toEqual([0, 1]);
  });
});

describe("the circuit breaker", () => {
  it("opens after repeated failures, skips the source while open, probes after the cool-down and closes on success", async () => {
    const djuuSearch = switchable(status(500, "Internal Server Error"));
    const [djuu, mirror] = await sources(djuuSource(djuuSearch.install), mirrorSource());
    const { uncached, clock, health, log } = searchOver([djuu, mirror], { failureThreshold: 3, coolDownMs: 30_000 });
    const djuuHealth = () => health.list().find((s) => s.code === "djuu")!;

    for (let i = 0; i < 3; i++) {
      expect((await uncached.search(query())).errors).toEqual([{ source: "djuu", msg: "搜索失败" }]);
    }
    expect(djuu.searches()).toBe(3);
    expect(djuuHealth()).toMatchObject({ state: "open", consecutiveFailures: 3, calls: 3, failures: 3, successRate: 0, lastError: { kind: "http" } });
    expect(log.lines.some((l) => l.level === 40 && l.source === "djuu" && String(l.msg).startsWith("source circuit opened"))).toBe(true);

    // Open: answered at once, the site is not asked, the others still answer.
    const skipped = await uncached.search(query());
    expect(skipped.errors).toEqual([{ source: "djuu", msg: "源站暂时不可用" }]);
    expect(skipped.list.length).toBeGreaterThan(0);
    expect(djuu.searches()).toBe(3);

    // After the cool-down one probe goes through; it fails: open again, for another cool-down.
    clock.advance(30_000);
    expect(djuuHealth().state).toBe("half-open");
    expect((await uncached.search(query())).errors).toEqual([{ source: "djuu", msg: "搜索失败" }]);
    expect(djuu.searches()).toBe(4);
    expect((await uncached.search(query())).errors).toEqual([{ source: "djuu", msg: "源站暂时不可用" }]);
    expect(djuu.searches()).toBe(4);

    // The site is back: the next probe succeeds and closes the breaker.
    djuuSearch.failing.now = false;
    clock.advance(30_000);
    const probed = await uncached.search(query());
    expect(probed.errors).toEqual([]);
    expect(probed.list.some((i) => i.source === "djuu")).toBe(true);
    expect(djuuHealth()).toMatchObject({ state: "closed", consecutiveFailures: 0, calls: 5, failures: 4, skipped: 2 });
    expect(log.lines.some((l) => l.level === 30 && l.source === "djuu" && String(l.msg).startsWith("source circuit closed"))).toBe(true);
    await uncached.search(query());
    expect(djuu.searches()).toBe(6);
  });

  it("counts a connection reset and a timeout as failures, and measures latencies", async () => {
    const [djuu, mirror] = await sources(
      djuuSource((site) => site.route("/search", resetMidBody())),
      mirrorSource((site) => site.route("/search", hang), 150),
    );
    const { uncached, health } = searchOver([djuu, mirror]);
    const error = await uncached.search(query()).catch((e: unknown) => e);
    // Every source failed: the search fails (502, both named), as for a local failure.
    expect(error).toMatchObject({ status: 502, message: "搜索失败" });
    const [d, m] = health.list();
    expect(d).toMatchObject({ code: "djuu", name: "DJUU", state: "closed", lastError: { kind: "network" }, failures: 1 });
    expect(m).toMatchObject({ code: "mirror", lastError: { kind: "timeout" }, failures: 1 });
    expect(m!.p50Ms).toBeGreaterThanOrEqual(140);
    expect(new Date(d!.lastError!.at).getTime()).toBeGreaterThan(Date.now() - 5_000);
  });
});

describe("the cache of repeated searches", () => {
  it("answers a repeated search without asking the sites until the answer's max age (60 s)", async () => {
    const [djuu, mirror] = await sources(djuuSource(), mirrorSource());
    const { cached, clock } = searchOver([djuu, mirror]);
    const first = await cached.search(query(" 夜曲 "));
    expect(await cached.search(query("夜曲"))).toEqual(first); // same normalised query
    expect([djuu.searches(), mirror.searches()]).toEqual([1, 1]);
    await cached.search(query("夜曲", { page: "2" })); // another page is another query
    expect([djuu.searches(), mirror.searches()]).toEqual([2, 2]);
    clock.advance(61_000);
    await cached.search(query("夜曲"));
    expect([djuu.searches(), mirror.searches()]).toEqual([3, 3]);
  });

  it("keeps an answer naming a failed source 5 s at most", async () => {
    const [djuu, mirror] = await sources(djuuSource((site) => site.route("/search", status(500))), mirrorSource());
    const { cached, clock } = searchOver([djuu, mirror]);
    expect((await cached.search(query())).errors).toHaveLength(1);
    await cached.search(query());
    expect(djuu.searches()).toBe(1);
    clock.advance(6_000);
    await cached.search(query());
    expect(djuu.searches()).toBe(2);
  });

  it("drops kept answers when the catalogue changes", async () => {
    const [djuu] = await sources(djuuSource());
    const { cached, bus } = searchOver([djuu]);
    await cached.search(query());
    bus.publish({ type: "itemCounts", ids: [1] });
    await cached.search(query());
    expect(djuu.searches()).toBe(1);
    bus.publish({ type: "items", action: "created", ids: [1], categoryIds: [], siteCodes: ["local"] });
    await cached.search(query());
    expect(djuu.searches()).toBe(2);
  });
});
