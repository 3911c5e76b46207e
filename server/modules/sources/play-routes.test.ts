/**
 * Playing an external result through the app (issue 11): 172Mix's address needs its Referer,
 * so the media comes through our server with Range; djuu's is a 302. Real adapters and the
 * real registry on fixture sites, on both engines.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { file, startFixtureSite, status, type FixtureHandler, type FixtureSite } from "../../testing/fixture-site.js";
import { captureLog } from "../../testing/log-capture.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { serveDjuu } from "./adapters/djuu.fixtures.js";
import { createSourceAdapters } from "./registry.js";

const playHtml = readFileSync(new URL("./parsers/fixtures/172minx/play.html", import.meta.url), "utf8");
const removedHtml = readFileSync(new URL("./parsers/fixtures/172minx/play-removed.html", import.meta.url), "utf8");
const MEDIA_PATH = "/mp3/userdj/20261102/6a3f9c01e5b84d2aa1c07f3e9d1b2c44.m4a";
const SLOW_MEDIA_PATH = "/mp3/userdj/20261102/slow.m4a";
const PLAYLIST = ["#EXTM3U", "#EXT-X-TARGETDURATION:10", "#EXTINF:10.0,", "seg-0.ts", "#EXTINF:10.0,", "seg-1.ts", "#EXT-X-ENDLIST", ""].join("\n");
let slowMediaClosed: (early: boolean) => void = () => {};
/** 200 KB of deterministic bytes: every position tells where it came from. */
const MEDIA = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 31 + 7) % 251));

/** The site's media host: only with its Referer, with byte ranges. */
const serveMedia: FixtureHandler = (req, res) => {
  if (req.headers.referer !== "https://www.172mix.com/") {
    res.writeHead(403).end();
    return;
  }
  const size = MEDIA.length;
  const m = /^bytes=(\d+)-(\d*)$/u.exec(req.headers.range ?? "");
  if (!m) {
    res.writeHead(200, { "content-type": "audio/mp4", "content-length": String(size), "accept-ranges": "bytes" }).end(MEDIA);
    return;
  }
  const start = Number(m[1]);
  const end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  if (start >= size) {
    res.writeHead(416, { "content-range": `bytes */${size}` }).end();
    return;
  }
  res
    .writeHead(206, { "content-type": "audio/mp4", "content-length": String(end - start + 1), "content-range": `bytes ${start}-${end}/${size}`, "accept-ranges": "bytes" })
    .end(MEDIA.subarray(start, end + 1));
};

describe.each(testEngines())("playing external results on %s", (engine) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let minxSite: FixtureSite;
  let djuuSite: FixtureSite;
  let closeSources: () => void;
  const log = captureLog();

  const play = (source: string, id: string, headers: Record<string, string> = {}) =>
    app.inject({ url: "/api/forntend/source-play", query: { source, id }, headers });

  beforeAll(async () => {
    [minxSite, djuuSite] = await Promise.all([startFixtureSite(), startFixtureSite()]);
    const onSite = playHtml.replaceAll("https://mp3.172mix.com", minxSite.url);
    minxSite
      .route("/play/6a3f9c01", (req, res) => void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(onSite))
      // The same page, its media on a host that is not one of 172Mix's media hosts.
      .route("/play/6a3f9c09", (req, res) => void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(onSite.replaceAll(minxSite.url, `http://localhost:${minxSite.port}`)))
      .route("/play/gone01", (req, res) => void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(removedHtml))
      .route("/play/6a3f9c05", status(500, "Internal Server Error"))
      .route("/play/6a3f9c07", (req, res) => void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(onSite.replace(MEDIA_PATH, SLOW_MEDIA_PATH)))
      .route("/play/6a3f9c0a", (req, res) => void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(onSite.replace(MEDIA_PATH, "/hls/6a3f9c0a/index.m3u8")))
      .route(/^\/hls\/6a3f9c0a\/(.+)$/, (req, res, match) => {
        if (req.headers.referer !== "https://www.172mix.com/") return void res.writeHead(403).end();
        // Like a static host, the playlist honours a Range (a media element asks `bytes=0-`).
        if (match![1] === "index.m3u8") return file(Buffer.from(PLAYLIST), "application/vnd.apple.mpegurl")(req, res, match);
        const n = Number(/^seg-(\d)\.ts$/u.exec(match![1]!)?.[1] ?? NaN);
        if (!(n >= 0 && n < 2)) return void res.writeHead(404).end();
        res.writeHead(200, { "content-type": "video/mp2t" }).end(MEDIA.subarray(n * 1000, n * 1000 + 1000));
      })
      .route("/play/6a3f9c0b", (req, res) => void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(onSite.replace(MEDIA_PATH, "/mp3/expired.m4a")))
      .route("/mp3/expired.m4a", status(403, "token expired"))
      .route(MEDIA_PATH, serveMedia)
      .route(SLOW_MEDIA_PATH, (req, res) => {
        // One chunk, then a byte a second: only the proxy giving up ends it early.
        res.writeHead(200, { "content-type": "audio/mp4", "content-length": String(MEDIA.length) });
        res.write(MEDIA.subarray(0, 16_384));
        let sent = 16_384;
        const timer = setInterval(() => res.write(MEDIA.subarray(sent, ++sent)), 1_000);
        res.on("close", () => {
          clearInterval(timer);
          slowMediaClosed(sent < MEDIA.length);
        });
      });
    serveDjuu(djuuSite);
    const built = createSourceAdapters({
      userAgent: "DJSearchBot/1.0 (+http://test/about)",
      logger: log.logger,
      overrides: {
        "172minx": { baseUrl: minxSite.url, allowAddresses: [minxSite.host], extraMediaHosts: [minxSite.host], minIntervalMs: 0 },
        djuu: { baseUrl: djuuSite.url, apiBaseUrl: `${djuuSite.url}/app/v1`, allowAddresses: [djuuSite.host], minIntervalMs: 0 },
      },
    });
    closeSources = built.close;
    testApp = await createTestApp(engine, { sourceAdapters: built.sources });
    app = testApp.app;
  });

  afterAll(async () => {
    await testApp?.close();
    closeSources?.();
    await Promise.all([minxSite?.close(), djuuSite?.close()]);
  });

  it("streams 172Mix's media with its Referer: the whole file, and ranges at the start and the middle", async () => {
    const whole = await play("172minx", "6a3f9c01");
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({ "content-type": "audio/mp4", "content-length": "200000", "accept-ranges": "bytes" });
    expect(whole.rawPayload.equals(MEDIA)).toBe(true);

    const first = await play("172minx", "6a3f9c01", { range: "bytes=0-1023" });
    expect(first.statusCode).toBe(206);
    expect(first.headers).toMatchObject({ "content-range": "bytes 0-1023/200000", "content-length": "1024", "accept-ranges": "bytes" });
    expect(first.rawPayload.equals(MEDIA.subarray(0, 1024))).toBe(true);

    const middle = await play("172minx", "6a3f9c01", { range: "bytes=100000-" });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers["content-range"]).toBe("bytes 100000-199999/200000");
    expect(middle.rawPayload.equals(MEDIA.subarray(100_000))).toBe(true);

    const mediaHits = minxSite.hits.filter((h) => h.path === MEDIA_PATH);
    expect(mediaHits.map((h) => h.headers.referer)).toEqual(["https://www.172mix.com/", "https://www.172mix.com/", "https://www.172mix.com/"]);
    expect(mediaHits.map((h) => h.headers.range)).toEqual([undefined, "bytes=0-1023", "bytes=100000-"]);
    // One play's requests resolve the address once.
    expect(minxSite.hits.filter((h) => h.path === "/play/6a3f9c01")).toHaveLength(1);
  });

  it("a range past the end is 416 with the envelope", async () => {
    const res = await play("172minx", "6a3f9c01", { range: "bytes=300000-" });
    expect(res.statusCode).toBe(416);
    expect(res.json()).toMatchObject({ code: 0, msg: "请求的范围无效" });
  });

  it("streams an HLS playlist with its segments through signed links of ours, each with the Referer", async () => {
    const res = await play("172minx", "6a3f9c0a");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/vnd\.apple\.mpegurl/u);
    const lines = res.body.split("\n");
    expect(lines.filter((l) => l.startsWith("#"))).toEqual(PLAYLIST.split("\n").filter((l) => l.startsWith("#")));
    const segments = lines.filter((l) => l !== "" && !l.startsWith("#"));
    expect(segments).toHaveLength(2);
    for (const [n, link] of segments.entries()) {
      expect(link.startsWith("/api/forntend/source-play/segment?")).toBe(true);
      expect(new URL(link, "http://x").searchParams.get("u")).toBe(`${minxSite.url}/hls/6a3f9c0a/seg-${n}.ts`);
      const segment = await app.inject({ url: link });
      expect(segment.statusCode).toBe(200);
      expect(segment.rawPayload.equals(MEDIA.subarray(n * 1000, n * 1000 + 1000))).toBe(true);
    }
    const segmentHits = minxSite.hits.filter((h) => /^\/hls\/6a3f9c0a\/seg-/u.test(h.path));
    expect(segmentHits.map((h) => h.headers.referer)).toEqual(["https://www.172mix.com/", "https://www.172mix.com/"]);
    // Another address with the same signature is refused before any request to the site.
    // A media element playing the playlist itself (native HLS) asks with a Range: still read whole and rewritten.
    const ranged = await play("172minx", "6a3f9c0a", { range: "bytes=0-" });
    expect(ranged.statusCode).toBe(200);
    const addresses = (body: string) => body.split("\n").filter((l) => l !== "" && !l.startsWith("#")).map((l) => new URL(l, "http://x").searchParams.get("u"));
    expect(addresses(ranged.body)).toEqual(addresses(res.body));
    expect(minxSite.hits.filter((h) => h.path === "/hls/6a3f9c0a/index.m3u8").map((h) => h.headers.range)).toEqual([undefined, undefined]);
    const tampered = new URL(segments[0]!, "http://x");
    tampered.searchParams.set("u", `${minxSite.url}${MEDIA_PATH}`);
    const refused = await app.inject({ url: `${tampered.pathname}${tampered.search}` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe("没有访问权限");
    expect(minxSite.hits.filter((h) => /^\/hls\/6a3f9c0a\/seg-/u.test(h.path))).toHaveLength(2);
  });

  it("redirects djuu's direct address (no Referer needed)", async () => {
    const res = await play("djuu", "201001");
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("https://mp4.djuu.com/c4/22/2026/201001.m4a?t=1795000000");
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("refuses media on a host outside the source's media hosts: 502, nothing fetched", async () => {
    const before = minxSite.hits.filter((h) => h.path === MEDIA_PATH).length;
    const res = await play("172minx", "6a3f9c09");
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 0, msg: "来源站点暂时无法播放，请稍后再试" });
    expect(minxSite.hits.filter((h) => h.path === MEDIA_PATH)).toHaveLength(before);
    expect(log.lines).toContainEqual(expect.objectContaining({ msg: "media request refused (SSRF guard)", host: "localhost", reason: "host is not a media host of this source" }));
  });

  it("stops reading from the site when the browser goes away mid-stream", async () => {
    const origin = await app.listen({ port: 0, host: "127.0.0.1" });
    const upstreamClosed = new Promise<boolean>((resolve) => (slowMediaClosed = resolve));
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${origin}/api/forntend/source-play?source=172minx&id=6a3f9c07`, (res) => {
        expect(res.statusCode).toBe(200);
        // The first chunk arrived: the listener closes the tab.
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    });
    // The upstream answer is destroyed long before its 10 s of slow bytes would have ended.
    expect(await upstreamClosed).toBe(true);
  });

  it("a removed track, an unknown item or an unknown source is 媒体地址无效", async () => {
    const gone = await play("172minx", "gone01");
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ code: 0, msg: "媒体地址无效" });
    const unknownItem = await play("172minx", "404404");
    expect([404, 410]).toContain(unknownItem.statusCode);
    expect(unknownItem.json().msg).toBe("媒体地址无效");
    const unknownSource = await play("example", "1");
    expect(unknownSource.statusCode).toBe(404);
    expect(unknownSource.json().msg).toBe("媒体地址无效");
  });

  it("a media host refusing the address (its token ended) is 媒体地址无效, and the next press resolves again", async () => {
    const first = await play("172minx", "6a3f9c0b");
    expect(first.statusCode).toBe(404);
    expect(first.json()).toMatchObject({ code: 0, msg: "媒体地址无效" });
    await play("172minx", "6a3f9c0b");
    expect(minxSite.hits.filter((h) => h.path === "/play/6a3f9c0b")).toHaveLength(2);
  });

  it("a source that is down is 502 with a Chinese message, never a 500", async () => {
    const res = await play("172minx", "6a3f9c05");
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 0, msg: "来源站点暂时无法播放，请稍后再试" });
  });

  it("both routes are in the API documentation with their query", async () => {
    const doc = (await app.inject({ url: "/api/docs/json" })).json();
    const params = (path: string) => (doc.paths[path].get.parameters as { name: string; in: string }[]).filter((p) => p.in === "query").map((p) => p.name).sort();
    expect(params("/api/forntend/source-play")).toEqual(["id", "source"]);
    expect(params("/api/forntend/source-play/segment")).toEqual(["e", "id", "s", "source", "u"]);
  });

  it("refuses a request without a source or an id with 400", async () => {
    const res = await app.inject({ url: "/api/forntend/source-play?source=djuu" });
    expect(res.statusCode).toBe(400);
  });

  // Last: it spends this address's allowance.
  it("past 120 plays a minute from one address, 429", async () => {
    const answers = [];
    for (let i = 0; i < 125; i += 1) answers.push((await play("example", String(i))).statusCode);
    expect(answers.filter((code) => code === 429).length).toBeGreaterThan(0);
    expect(answers.slice(-1)).toEqual([429]);
  });
});
