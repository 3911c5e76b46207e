/**
 * 172Mix in the search across sources: its firewall refuses every non-ASCII keyword, so such a
 * query is never sent and never counts against it (SOURCES.md, "Corrections from independent
 * code"): ten Chinese searches in a row must not open its breaker for the ASCII ones.
 */
import { readFileSync } from "node:fs";
import { searchQuerySchema } from "@contracts/search";
import { afterEach, describe, expect, it } from "vitest";
import { adjustableClock } from "../../lib/clock.js";
import { html, startFixtureSite, status, type FixtureSite } from "../../testing/fixture-site.js";
import { captureLog } from "../../testing/log-capture.js";
import type { SearchProvider } from "../search/provider.js";
import { searchService } from "../search/service.js";
import { staticSourceDirectory } from "./directory.js";
import { createSourceAdapters } from "./registry.js";
import { externalSearch } from "./search-sources.js";

const searchHtml = readFileSync(new URL("./parsers/fixtures/172minx/search.html", import.meta.url), "utf8");

let site: FixtureSite;
const closers: (() => void)[] = [];
afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await site?.close();
});

/** Our catalogue, answering nothing: the search has one provider besides 172Mix. */
const local: SearchProvider = { code: "local", name: "本站", timeoutMs: 1_000, serves: () => true, search: async () => ({ list: [], total: 0 }) };

/** 172Mix as its firewall behaves logged out: 403 to a non-ASCII query; `ascii` answers the others. */
async function searchWith172Mix(ascii = html(searchHtml)) {
  site = await startFixtureSite();
  site.route("/searches", (req, res, match) => {
    const keyword = new URL(req.url ?? "/", "http://x").searchParams.get("query") ?? "";
    return /[^\x00-\x7f]/u.test(keyword) ? status(403, "403 Forbidden")(req, res, match) : ascii(req, res, match);
  });
  const built = createSourceAdapters({ logger: captureLog().logger, overrides: { "172minx": { baseUrl: site.url, allowAddresses: [site.host], minIntervalMs: 0 } } });
  closers.push(built.close);
  const minx = built.sources.find((s) => s.code === "172minx")!;
  const external = externalSearch({ directory: staticSourceDirectory([minx]), clock: adjustableClock(), logger: captureLog().logger });
  const service = searchService(() => [local, ...external.providers()]);
  const health = () => external.health.list().find((h) => h.code === "172minx")!;
  return { search: (keyword: string) => service.search(searchQuerySchema.parse({ keyword })), health };
}

describe("172Mix in a search", () => {
  it("ten Chinese searches skip it without a request or a failure; an ASCII search then still reaches it", async () => {
    const { search, health } = await searchWith172Mix();
    for (let i = 0; i < 10; i += 1) {
      const result = await search(i % 2 === 0 ? "夜曲" : "DJ小鱼 串烧");
      expect(result.errors).toEqual([]);
      expect(result.list).toEqual([]);
    }
    expect(site.hits).toHaveLength(0);
    expect(health()).toMatchObject({ state: "closed", calls: 0, failures: 0, consecutiveFailures: 0, lastError: null });

    const ascii = await search("yequ");
    expect(ascii.errors).toEqual([]);
    expect(ascii.list.length).toBeGreaterThan(0);
    expect(ascii.list.every((hit) => hit.source === "172minx")).toBe(true);
    expect(health()).toMatchObject({ state: "closed", calls: 1, failures: 0 });
    // What the site saw: the ASCII search alone, never a non-ASCII query.
    expect(site.hits.map((h) => h.query.get("query"))).toEqual(["yequ"]);
    expect(site.hits.every((h) => !/[^\x00-\x7f]/u.test(decodeURIComponent(h.url)))).toBe(true);
  });

  it("a 403 to an ASCII query is still a failure naming 172Mix (blocked)", async () => {
    const { search, health } = await searchWith172Mix(status(403, "403 Forbidden"));
    const result = await search("yequ");
    expect(result.errors).toEqual([{ source: "172minx", msg: "搜索失败" }]);
    expect(health()).toMatchObject({ failures: 1, lastError: { kind: "blocked" } });
  });
});
