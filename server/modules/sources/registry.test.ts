import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../../testing/log-capture.js";
import { readFileSync } from "node:fs";
import { file, html, startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { DJUU_APP_USER_AGENT } from "./adapters/djuu-api.js";
import { serveDjuu, serveDjuuApi } from "./adapters/djuu.fixtures.js";
import { BROWSER_USER_AGENT } from "./fetch/user-agent.js";
import { BUILTIN_SOURCES, createSourceAdapters, type SourceOverride } from "./registry.js";
import { HLS_MIME_TYPE, toCatalogueItem } from "./source-provider.js";
import { SourceError, type SourceItem } from "./types.js";

const userAgent = "DJSearchBot/1.0 (+http://test/about)";
let site: FixtureSite | undefined;
const closers: (() => void)[] = [];
afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await site?.close();
  site = undefined;
});

describe("the built-in sources", () => {
  it("are DJUU, 172Mix and 清风DJ with their homepages, a 3 s timeout and their adapters", () => {
    const built = createSourceAdapters({ userAgent, logger: captureLog().logger });
    closers.push(built.close);
    expect(built.sources.map((s) => [s.code, s.name, s.homepage, s.timeoutMs, s.adapter.code, s.adapter.name])).toEqual([
      ["djuu", "DJUU", "https://www.djuu.com", 3_000, "djuu", "DJUU"],
      ["172minx", "172Mix", "https://www.172mix.com", 3_000, "172minx", "172Mix"],
      ["vvvdj", "清风DJ", "https://www.vvvdj.com", 3_000, "vvvdj", "清风DJ"],
    ]);
    expect(BUILTIN_SOURCES.map((s) => s.hosts)).toEqual([
      ["www.djuu.com", "android.djuu.com", "m.djuu.com"],
      ["www.172mix.com", "m.172mix.com"],
      ["www.vvvdj.com", "m.vvvdj.com"],
    ]);
  });

  it("清风DJ streams HLS only: its hits tell the player so, the others' leave the address to say", () => {
    const built = createSourceAdapters({ userAgent, logger: captureLog().logger });
    closers.push(built.close);
    const found: SourceItem = {
      source: "vvvdj", sourceId: "234567", title: "夜曲", artist: null, cover: null, duration: null, sizeBytes: null,
      url: "https://www.vvvdj.com/play/234567.html", playtype: "mp3", kind: "single", raw: {},
    };
    expect(built.sources.map((s) => [s.code, toCatalogueItem(found, s).mimeType])).toEqual([
      ["djuu", undefined],
      ["172minx", undefined],
      ["vvvdj", HLS_MIME_TYPE],
    ]);
  });

  it("djuu through the registry: its web and app API bases overridden to a fixture site", async () => {
    site = serveDjuu(await startFixtureSite());
    const built = createSourceAdapters({
      userAgent,
      logger: captureLog().logger,
      overrides: { djuu: { baseUrl: site.url, apiBaseUrl: `${site.url}/app/v1`, allowAddresses: [site.host], minIntervalMs: 0 } },
    });
    closers.push(built.close);
    const djuu = built.sources.find((s) => s.code === "djuu")!.adapter;
    expect((await djuu.search({ keyword: "夜曲", page: 1, type: "mp3" })).items).toHaveLength(3);
    expect((await djuu.resolveMedia("201001")).url).toBe("https://mp4.djuu.com/c4/22/2026/201001.m4a?t=1795000000");
    // One User-Agent given for every source: its pages carry it; its app API still its app's (a request's own header wins).
    const agents = (api: boolean) => [...new Set(site!.hits.filter((h) => h.path.startsWith("/app/") === api).map((h) => h.headers["user-agent"]))];
    expect(agents(false)).toEqual([userAgent]);
    expect(agents(true)).toEqual([DJUU_APP_USER_AGENT]);
  });

  it("by default each source asks with a desktop browser's User-Agent, djuu's app API with its app's, media too; a request's own wins", async () => {
    site = serveDjuu(serveDjuuApi(await startFixtureSite()));
    site
      .route("/searches", html(readFileSync(new URL("./parsers/fixtures/172minx/search.html", import.meta.url), "utf8")))
      .route("/search/so", html(readFileSync(new URL("./parsers/fixtures/vvvdj/search.html", import.meta.url), "utf8")))
      .route("/media/a.m4a", file(Buffer.alloc(64), "audio/mp4"));
    const onSite: SourceOverride = { baseUrl: site.url, allowAddresses: [site.host], extraMediaHosts: [site.host], minIntervalMs: 0 };
    const built = createSourceAdapters({
      logger: captureLog().logger,
      overrides: { djuu: { ...onSite, apiBaseUrl: `${site.url}/app/v1` }, "172minx": onSite, vvvdj: onSite },
    });
    closers.push(built.close);
    const [djuu, minx, vvvdj] = built.sources;
    await djuu!.adapter.search({ keyword: "夜曲", page: 1, type: "mp3" });
    await djuu!.adapter.listCategory("2", 1);
    await minx!.adapter.search({ keyword: "yequ", page: 1, type: "mp3" });
    await vvvdj!.adapter.search({ keyword: "yequ", page: 1, type: "mp3" }).catch(() => undefined); // what it asked with is what counts here
    const agentsOf = (path: string) => site!.hits.filter((h) => h.path === path).map((h) => [h.headers["user-agent"], h.headers.accept]);
    expect(agentsOf("/app/v1/music/search")).toEqual([[DJUU_APP_USER_AGENT, "application/json"]]);
    expect(agentsOf("/djlist/2_1.html").map(([agent]) => agent)).toEqual([BROWSER_USER_AGENT]);
    expect(agentsOf("/searches").map(([agent]) => agent)).toEqual([BROWSER_USER_AGENT]);
    expect(agentsOf("/search/so").map(([agent]) => agent)).toEqual([BROWSER_USER_AGENT]);
    expect(BROWSER_USER_AGENT).toMatch(/^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\) AppleWebKit\/537\.36 \(KHTML, like Gecko\) Chrome\/\d+\.0\.0\.0 Safari\/537\.36$/u);

    const signal = AbortSignal.timeout(5_000);
    (await minx!.media.open(`${site.url}/media/a.m4a`, { Referer: "https://www.172mix.com/" }, signal)).body.resume();
    (await minx!.media.open(`${site.url}/media/a.m4a`, { "User-Agent": "Custom/1.0" }, signal)).body.resume();
    expect(agentsOf("/media/a.m4a").map(([agent]) => agent)).toEqual([BROWSER_USER_AGENT, "Custom/1.0"]);
    expect(site.hits.some((h) => /bot/iu.test(h.headers["user-agent"] ?? ""))).toBe(false);
  });

  it("without allowAddresses (as in production) a base URL on a loopback address is refused", async () => {
    site = serveDjuu(await startFixtureSite());
    const log = captureLog();
    const built = createSourceAdapters({ userAgent, logger: log.logger, overrides: { vvvdj: { baseUrl: site.url } } });
    closers.push(built.close);
    const error = await built.sources[2]!.adapter.search({ keyword: "夜曲", page: 1, type: "mp3" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).kind).toBe("forbidden_address");
    expect(site.hits).toHaveLength(0);
    expect(log.lines.some((l) => l.msg === "source request refused (SSRF guard)" && l.source === "vvvdj")).toBe(true);
  });
});
