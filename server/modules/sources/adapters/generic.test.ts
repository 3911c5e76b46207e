import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../../../testing/log-capture.js";
import { gbkHtml, html, json, startFixtureSite, type FixtureSite } from "../../../testing/fixture-site.js";
import { createSourceFetcher } from "../fetch/client.js";
import { SourceError, type SourceAdapter, type SourceItem } from "../types.js";
import { createDjuuAdapter } from "./djuu.js";
import { changedLayoutPage, playPage, serveDjuu } from "./djuu.fixtures.js";
import { createGenericAdapter } from "./generic.js";
import { parseGenericConfig } from "./generic-config.js";

const djuuConfigJson = readFileSync(new URL("./djuu.generic.json", import.meta.url), "utf8");

let site: FixtureSite;
const closers: (() => void)[] = [];
afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await site?.close();
});

/** The djuu code adapter and the generic adapter built from djuu.generic.json, both on one fixture djuu. */
async function bothAdapters(override: (site: FixtureSite) => void = () => {}): Promise<{ code: SourceAdapter; generic: SourceAdapter }> {
  site = await startFixtureSite();
  override(site);
  serveDjuu(site);
  const fetcher = createSourceFetcher({
    source: "djuu",
    allowedHosts: [site.host],
    allowAddresses: [site.host],
    userAgent: "DJSearchBot/1.0 (+http://test/about)",
    logger: captureLog().logger,
    minIntervalMs: 0,
  });
  closers.push(() => fetcher.close());
  // Only the addresses change for the fixture site: the rest is the stored configuration as is.
  const stored = JSON.parse(djuuConfigJson) as Record<string, unknown>;
  const config = parseGenericConfig({ ...stored, baseUrl: site.url, bases: { api: `${site.url}/app/v1` }, hosts: [site.host] });
  return {
    code: createDjuuAdapter({ fetcher, baseUrl: site.url, apiBaseUrl: `${site.url}/app/v1` }),
    generic: createGenericAdapter(config, fetcher),
  };
}

/** Items without `raw` (each adapter keeps what it read its own way). */
const withoutRaw = (items: SourceItem[]) => items.map(({ raw: _raw, ...item }) => item);

describe("the generic adapter, configured as djuu", () => {
  it("gives the djuu adapter's search results, page by page, from configuration alone", async () => {
    const { code, generic } = await bothAdapters();
    for (const page of [1, 2]) {
      const input = { keyword: "夜曲", page, type: "mp3" as const };
      const [expected, actual] = [await code.search(input), await generic.search(input)];
      expect(expected.items.length).toBeGreaterThan(0);
      expect(withoutRaw(actual.items)).toEqual(withoutRaw(expected.items));
      expect(actual.hasMore).toBe(expected.hasMore);
    }
    const generics = await generic.search({ keyword: "夜曲", page: 1, type: "mp3" });
    expect(generics.items[1]!.raw).toMatchObject({ id: "201002", title: "【DJUU独家】南宁DJ小鱼-全中文国粤语Club音乐夜曲串烧" });
  });

  it("gives the same details (the title from the play page's music script, not its <h1>)", async () => {
    const { code, generic } = await bothAdapters((s) => s.route("/play/201001.html", html(playPage("201001", { heading: "DJ呦呦 - 在线试听" }))));
    const [expected, actual] = [await code.details("201001"), await generic.details("201001")];
    const { raw: _a, ...expectedRest } = expected;
    const { raw: _b, ...actualRest } = actual;
    expect(actualRest).toEqual(expectedRest);
    expect(actual.duration).toBe(252);
    expect(actual.title).toBe("夜曲(DJ阿福 Electro Rmx 2025 粤语)");
  });

  it("gives the same empty page, and the same layout error for a changed page", async () => {
    const { code, generic } = await bothAdapters();
    const none = { keyword: "没有这首歌", page: 1, type: "mp3" as const };
    expect(await generic.search(none)).toEqual(await code.search(none));
    const changed = await bothAdapters((s) => s.route("/search", html(changedLayoutPage())));
    const input = { keyword: "夜曲", page: 1, type: "mp3" as const };
    for (const adapter of [changed.code, changed.generic]) {
      const error = await adapter.search(input).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SourceError);
      expect((error as SourceError).kind).toBe("layout");
    }
  });

  it("gives the same category pages and charts (the chart's raw fields too)", async () => {
    const { code, generic } = await bothAdapters();
    for (const page of [1, 2, 3]) {
      const [expectedCategory, actualCategory] = [await code.listCategory("2", page), await generic.listCategory("2", page)];
      expect(withoutRaw(actualCategory.items)).toEqual(withoutRaw(expectedCategory.items));
      // The next page is linked in three parts (`/djlist/2_1_{page+1}.html`): pages 1 and 2 have one.
      expect([actualCategory.hasMore, expectedCategory.hasMore]).toEqual([page < 3, page < 3]);
    }
    for (const chart of [{ period: "week", kind: "single" }, { period: "quarter", kind: "mix" }] as const) {
      expect(await generic.listChart(chart)).toEqual(await code.listChart(chart));
    }
  });

  it("resolves media like djuu: the API's listenurl, else the play page's file; an API error code is an error", async () => {
    const { code, generic } = await bothAdapters();
    expect(await generic.resolveMedia("201001")).toEqual(await code.resolveMedia("201001"));
    const fallback = await bothAdapters((s) => s.route("/app/v1/music/listen", json({ code: 0, msg: "无权限", data: null })));
    expect(await fallback.generic.resolveMedia("201001")).toEqual({ url: "https://mp4.djuu.com/c4/22/2026/ab12cd34.m4a", headers: {}, format: "m4a" });
    const failing = await bothAdapters((s) => s.route("/app/v1/music/playRankings", json({ code: 0, msg: "系统繁忙" })));
    const error = await failing.generic.listChart({ period: "day", kind: "mix" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as SourceError).kind).toBe("http");
    expect((error as SourceError).message).toContain("系统繁忙");
  });
});

describe("a generic GBK site (72dj-like), from configuration only", () => {
  it("decodes the configured encoding when the page does not say, and reads items by selector and regex", async () => {
    site = await startFixtureSite();
    site.route("/so", (req, res, match) => {
      const key = new URL(req.url ?? "/", "http://x").searchParams.get("k");
      const rows = key === "夜曲" ? `<li><a href="/play/777.htm">周杰伦 - 夜曲(DJ阿福 Rmx)</a><em>03:58</em></li><li><a href="/play/778.htm">DJ小鱼-夜曲大串烧</a><em>62:10</em></li>` : "";
      return gbkHtml(`<html><body><ul class="list">${rows}</ul><p>${rows ? "" : "没有找到"}</p></body></html>`, "none")(req, res, match);
    });
    const fetcher = createSourceFetcher({ source: "dj72", allowedHosts: [site.host], allowAddresses: [site.host], userAgent: "DJSearchBot/1.0", logger: captureLog().logger, minIntervalMs: 0 });
    closers.push(() => fetcher.close());
    const adapter = createGenericAdapter(
      parseGenericConfig({
        code: "dj72",
        name: "72DJ",
        baseUrl: site.url,
        hosts: [site.host],
        encoding: "gbk",
        itemUrl: "/play/{id}.htm",
        search: {
          url: "/so?k={keyword}&p={page}",
          extract: {
            type: "html",
            items: "ul.list li",
            fields: { id: { selector: "a", attr: "href", regex: "/play/(\\d+)\\.htm" }, title: { selector: "a" }, duration: { selector: "em" } },
            emptyWhen: { texts: ["没有找到"] },
          },
        },
      }),
      fetcher,
    );
    const page = await adapter.search({ keyword: "夜曲", page: 1, type: "mp3" });
    expect(site.hits[0]!.url).toBe("/so?k=%E5%A4%9C%E6%9B%B2&p=1");
    expect(page.items.map((i) => [i.sourceId, i.artist, i.title, i.duration, i.kind, i.url])).toEqual([
      ["777", "周杰伦", "夜曲(DJ阿福 Rmx)", 238, "single", `${site.url}/play/777.htm`],
      ["778", null, "DJ小鱼-夜曲大串烧", 3730, "mix", `${site.url}/play/778.htm`],
    ]);
    expect(await adapter.search({ keyword: "无", page: 1, type: "mp3" })).toEqual({ items: [], hasMore: false });
    expect(await adapter.search({ keyword: "夜曲", page: 1, type: "mp4" })).toEqual({ items: [], hasMore: false });
  });
});

describe("generic source configs", () => {
  it("refuses a config with a wrong field, naming it", () => {
    const stored = JSON.parse(djuuConfigJson) as Record<string, unknown>;
    expect(() => parseGenericConfig({ ...stored, baseUrl: "not a url" })).toThrow(/baseUrl/);
    expect(() => parseGenericConfig({ ...stored, search: { url: "/s", extract: { type: "html", fields: { id: { regex: "(" } } } } })).toThrow(/regular expression/);
  });
});
