/**
 * The play route's guards (ADR 0026): resolutions count on the source's health board and an open
 * breaker answers at once; the HLS segment links are signed with the database's key, so a
 * playlist written by one instance plays through another; a page answered instead of media is
 * 媒体地址无效. The sources are generic ones stored at runtime, on a fixture site.
 */
import http from "node:http";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { buildApp } from "../../app.js";
import { loadConfig } from "../../config.js";
import { appSettings } from "../../db/schema/index.js";
import { createTestAdmin } from "../../testing/admins.js";
import { file, hang, html, json, startFixtureSite, status, type FixtureSite } from "../../testing/fixture-site.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";
import { SEGMENT_SECRET_KEY } from "./play-service.js";

const PLAYLIST = ["#EXTM3U", "#EXT-X-TARGETDURATION:10", "#EXTINF:10.0,", "seg-0.ts", "#EXT-X-ENDLIST", ""].join("\n");
const SEGMENT = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));
const AUDIO = Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7) % 251));
const REFERER = "https://play.example/";

/** A site whose listen API gives an address per id; its media host wants our Referer. */
function playConfig(site: FixtureSite, code: string) {
  return {
    code,
    name: code === "guarded" ? "守护DJ" : "坏站DJ",
    baseUrl: site.url,
    hosts: [site.host],
    itemUrl: "/play/{id}.html",
    search: { url: "/search?k={keyword}", extract: { type: "json", items: "list", fields: { id: { path: "id" }, title: { path: "title" } } } },
    media: [{ url: "/listen?id={id}", format: "m4a", mediaHeaders: { Referer: REFERER }, extract: { type: "json", fields: { url: { path: "url" } } } }],
    minIntervalMs: 0,
  };
}

describe.each(testEngines())("the play route's guards on %s", (engine) => {
  let testApp: TestApp;
  let actor: { adminId: number; ip: string };
  let app: FastifyInstance;
  let site: FixtureSite;

  const play = (target: FastifyInstance, source: string, id: string) => target.inject({ url: "/api/forntend/source-play", query: { source, id } });
  const health = (code: string) => app.services.sourceHealth.list().find((s) => s.code === code)!;
  const listens = () => site.hits.filter((h) => h.path === "/listen").length;

  beforeAll(async () => {
    site = await startFixtureSite();
    const referred = (handler: ReturnType<typeof file>): ReturnType<typeof file> => (req, res, match) =>
      req.headers.referer === REFERER ? handler(req, res, match) : void res.writeHead(403).end();
    site
      .route("/listen", (req, res, match) => {
        const id = new URL(req.url ?? "/", "http://x").searchParams.get("id");
        if (id === "down") return status(500, "Internal Server Error")(req, res, match);
        if (id === "slow") return hang(req, res, match);
        const path = { hls: "/hls/index.m3u8", page: "/media/login.m4a", audio: "/media/ok.m4a", json: "/media/error.m4a", long: "/media/long.m4a" }[id ?? ""];
        return path ? json({ url: path })(req, res, match) : json({})(req, res, match);
      })
      .route("/hls/index.m3u8", referred(file(Buffer.from(PLAYLIST), "application/vnd.apple.mpegurl")))
      .route("/hls/seg-0.ts", referred(file(SEGMENT, "video/mp2t")))
      .route("/media/ok.m4a", referred(file(AUDIO, "audio/mp4")))
      // A long answer: 8 chunks 50 ms apart.
      .route("/media/long.m4a", (req, res) => {
        res.writeHead(200, { "content-type": "audio/mp4", "content-length": String(AUDIO.length) });
        let sent = 0;
        const timer = setInterval(() => {
          res.write(AUDIO.subarray(sent, (sent += 1024)));
          if (sent >= AUDIO.length) {
            clearInterval(timer);
            res.end();
          }
        }, 50);
        res.on("close", () => clearInterval(timer));
      })
      // The media host answers 200 with its login page, or a JSON error, instead of the audio.
      .route("/media/login.m4a", referred(html("<!DOCTYPE html><html><body>请先登录</body></html>")))
      .route("/media/error.m4a", referred(json({ code: 0, msg: "token expired" })));
    testApp = await createTestApp(engine, { sourceNetwork: { allowAddresses: [site.host] }, sourceBreaker: { failureThreshold: 2, coolDownMs: 60_000 } });
    app = testApp.app;
    actor = { adminId: (await createTestAdmin(testApp.database.db)).id, ip: "127.0.0.1" };
    for (const code of ["guarded", "broken"]) await app.services.sourceAdmin.putConfig(actor, code, playConfig(site, code));
  });

  afterAll(async () => {
    await testApp?.close();
    await site?.close();
  });

  it("a resolution counts on the health board like a search", async () => {
    const res = await play(app, "guarded", "audio");
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(AUDIO)).toBe(true);
    expect(health("guarded")).toMatchObject({ calls: 1, failures: 0, successRate: 1, state: "closed" });
    // An item the site has no address for: the site answered, it is not a failure of the site.
    expect((await play(app, "guarded", "none")).statusCode).toBe(410);
    expect(health("guarded")).toMatchObject({ calls: 2, failures: 0 });
  });

  it("failures open the breaker; then play answers at once without asking the site", async () => {
    for (let i = 0; i < 2; i += 1) expect((await play(app, "broken", "down")).statusCode).toBe(502);
    expect(health("broken")).toMatchObject({ calls: 2, failures: 2, state: "open", lastError: expect.objectContaining({ kind: "http" }) });
    const before = listens();
    const started = performance.now();
    const res = await play(app, "broken", "slow");
    expect(performance.now() - started).toBeLessThan(200);
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe("30");
    expect(res.json()).toMatchObject({ code: 0, msg: "来源站点暂时无法播放，请稍后再试" });
    expect(listens()).toBe(before);
    expect(health("broken").skipped).toBe(1);
  });

  it("an HTML or JSON page answered 200 instead of media is 媒体地址无效, and the next press resolves again", async () => {
    for (const id of ["page", "json"]) {
      const res = await play(app, "guarded", id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ code: 0, msg: "媒体地址无效" });
    }
    const before = listens();
    await play(app, "guarded", "page");
    expect(listens()).toBe(before + 1);
  });

  it("a stream being played keeps playing when its source's configuration is replaced", async () => {
    const origin = await app.listen({ port: 0, host: "127.0.0.1" });
    const body = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      http
        .get(`${origin}/api/forntend/source-play?source=guarded&id=long`, (res) => {
          expect(res.statusCode).toBe(200);
          res.once("data", () => {
            // Replaced mid-stream: the old streamer's socket stays until this answer ends.
            void app.services.sourceAdmin.putConfig(actor, "guarded", { ...playConfig(site, "guarded"), headers: { "X-Changed": "1" } }).catch(reject);
          });
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve(Buffer.concat(chunks)));
          res.on("error", reject);
        })
        .on("error", reject);
    });
    expect(body.equals(AUDIO)).toBe(true);
    expect(app.services.sourceDirectory.get("guarded")).toBeDefined();
    expect((await play(app, "guarded", "audio")).statusCode).toBe(200);
    expect(site.hits.filter((h) => h.path === "/listen").at(-1)!.headers["x-changed"]).toBe("1");
  });

  it("signs segment links with the database's key: a playlist from one instance plays through another", async () => {
    const playlist = await play(app, "guarded", "hls");
    expect(playlist.statusCode).toBe(200);
    const link = playlist.body.split("\n").find((l) => l.startsWith("/api/forntend/source-play/segment?"))!;
    expect(link).toBeDefined();
    const [row] = await testApp.database.db.select().from(appSettings).where(eq(appSettings.key, SEGMENT_SECRET_KEY));
    expect(typeof row?.value).toBe("string");

    // A second instance on the same database (or this one restarted).
    const config = loadConfig({ EXTERNAL_SOURCES: "none", CHARTS_REBUILD_INTERVAL_MS: "0", NODE_ENV: "test", DATA_DIR: testApp.dataDir });
    const other = await buildApp({ config, database: testApp.database, logger: false, sourceAdapters: [], sourceNetwork: { allowAddresses: [site.host] } });
    await other.ready();
    try {
      const segment = await other.inject({ url: link });
      expect(segment.statusCode).toBe(200);
      expect(segment.rawPayload.equals(SEGMENT)).toBe(true);
      // Its directory read the stored sources at start: the other instance plays them too.
      expect((await play(other, "guarded", "audio")).statusCode).toBe(200);
      const tampered = link.replace(/s=[^&]+/u, "s=AAAA");
      expect((await other.inject({ url: tampered })).statusCode).toBe(403);
    } finally {
      await other.close();
    }
  });
});
