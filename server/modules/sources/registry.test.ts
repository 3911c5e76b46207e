import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../../testing/log-capture.js";
import { startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { serveDjuu } from "./adapters/djuu.fixtures.js";
import { BUILTIN_SOURCES, createSourceAdapters } from "./registry.js";
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
    expect(site.hits.every((h) => h.headers["user-agent"] === userAgent)).toBe(true);
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
