/**
 * The demo media really play in Debian's Chromium, served by the media routes alone:
 * mp3, m4a, HLS and mp4 play; the hour-long mix reports its duration and a seek to its middle
 * plays from there after one Range request, not a download of everything before it.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareDemoMedia, type PreparedDemoMedia } from "../server/demo-media/prepare-demo-media.js";
import { startMediaServer } from "../server/modules/media/test-http.js";
import { launchBrowser } from "./browser.js";

const RESULTS = join(process.cwd(), "test-results");
let dataDir: string;
let demo: PreparedDemoMedia;
let app: FastifyInstance;
let base: string;
let browser: Browser;
let page: Page;
/** Every media request the server saw: url and Range header. */
const seen: { url: string; range: string | undefined }[] = [];

const PLAYER_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>media test</title></head>
<body><audio id="a" preload="metadata"></audio><video id="v" width="640" height="360" muted playsinline></video></body></html>`;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "e2e-media-"));
  demo = await prepareDemoMedia(dataDir);
  const noImage = await readFile(join(process.cwd(), "public/img/noimage.png"));
  const started = await startMediaServer(
    { mediaDir: join(dataDir, "media"), uploadsDir: join(dataDir, "uploads") },
    (a) => {
      a.addHook("onRequest", async (req) => {
        if (req.url.startsWith("/media/")) seen.push({ url: req.url, range: req.headers.range });
      });
      a.get("/test/player", async (_req, reply) => reply.type("text/html; charset=utf-8").send(PLAYER_PAGE));
      a.get("/test/sheet", async (_req, reply) => reply.type("text/html; charset=utf-8").send(contactSheet(demo)));
      a.get("/img/noimage.png", async (_req, reply) => reply.type("image/png").send(noImage));
    },
  );
  app = started.app;
  base = `http://127.0.0.1:${started.port}`;
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(`${base}/test/player`);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Plays `url` in the element and resolves once currentTime has passed `seconds`. */
async function playUntil(selector: string, url: string, seconds: number): Promise<{ duration: number; error: string | null }> {
  return page.evaluate(
    async ({ selector, url, seconds }) => {
      const el = document.querySelector<HTMLMediaElement>(selector)!;
      el.src = url;
      await el.play();
      const deadline = performance.now() + 15_000;
      while (el.currentTime < seconds && !el.error && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const result = { duration: el.duration, error: el.error ? `${el.error.code} ${el.error.message}` : null, t: el.currentTime };
      el.pause();
      if (result.t < seconds) result.error ??= `currentTime stuck at ${result.t}`;
      return result;
    },
    { selector, url, seconds },
  );
}

describe("demo media in Chromium", () => {
  it("plays every short demo loop (mp3 and m4a): currentTime advances", async () => {
    for (const a of demo.audio) {
      const r = await playUntil("#a", a.url, 0.5);
      expect(r.error, a.url).toBeNull();
      expect(r.duration, a.url).toBeCloseTo(a.durationSec, 0);
    }
  });

  it("plays the HLS stream natively", async () => {
    const native = await page.evaluate(() => document.createElement("audio").canPlayType("application/vnd.apple.mpegurl"));
    // Chromium has played HLS natively since 14x; the player uses hls.js where it does not.
    expect(native).not.toBe("");
    const r = await playUntil("#a", demo.hls.url, 0.5);
    expect(r.error).toBeNull();
    expect(r.duration).toBeCloseTo(demo.hls.durationSec, 0);
  });

  it("plays the mp4 video (H.264 + AAC) with its picture", async () => {
    const r = await playUntil("#v", demo.video.url, 0.5);
    expect(r.error).toBeNull();
    expect(await page.evaluate(() => document.querySelector<HTMLVideoElement>("#v")!.videoWidth)).toBe(640);
  });

  it("reports the long mix's duration and seeks to its middle through a Range request", async () => {
    const { size } = await stat(join(dataDir, demo.longMix.url));
    const meta = await page.evaluate(async (url) => {
      const el = document.querySelector<HTMLAudioElement>("#a")!;
      el.src = url;
      await el.play();
      while (el.currentTime < 0.3) await new Promise((r) => setTimeout(r, 20));
      return el.duration;
    }, demo.longMix.url);
    expect(meta).toBeGreaterThanOrEqual(3600);
    expect(meta).toBeCloseTo(demo.longMix.durationSec, 0);

    const timings: { target: number; seekedMs: number; playingMs: number; landed: number }[] = [];
    for (const fraction of [0.5, 0.27, 0.83, 0.61, 0.12]) {
      seen.length = 0;
      const target = Math.round(meta * fraction * 10) / 10;
      // From setting currentTime to the element playing past the target.
      const t = await page.evaluate(async (target) => {
        const el = document.querySelector<HTMLAudioElement>("#a")!;
        const start = performance.now();
        let seekedMs = -1;
        el.addEventListener("seeked", () => (seekedMs = performance.now() - start), { once: true });
        el.currentTime = target;
        while (!(seekedMs >= 0 && el.currentTime > target + 0.01 && !el.paused)) {
          await new Promise((r) => requestAnimationFrame(r));
          if (performance.now() - start > 10_000) throw new Error(`seek stuck at ${el.currentTime}`);
        }
        return { target, seekedMs, playingMs: performance.now() - start, landed: el.currentTime };
      }, target);
      timings.push(t);
      expect(t.landed).toBeGreaterThan(target - 0.5);
      expect(t.landed).toBeLessThan(target + 2);
      const starts = seen.filter((s) => s.url === demo.longMix.url && s.range).map((s) => Number(/bytes=(\d+)-/.exec(s.range!)?.[1]));
      // The browser fetched from near the target's byte offset, not from the start.
      expect(Math.max(...starts)).toBeGreaterThan(size * fraction * 0.9);
    }
    // Still advancing a moment later.
    const before = await page.evaluate(() => document.querySelector<HTMLAudioElement>("#a")!.currentTime);
    await page.waitForTimeout(600);
    const after = await page.evaluate(() => document.querySelector<HTMLAudioElement>("#a")!.currentTime);
    expect(after - before).toBeGreaterThan(0.3);

    const ms = timings.map((t) => t.playingMs).sort((a, b) => a - b);
    const report = { timings, medianPlayingMs: ms[Math.floor(ms.length / 2)], maxPlayingMs: ms[ms.length - 1] };
    console.log("long-mix seek-to-playing on localhost:", JSON.stringify(report));
    await mkdir(RESULTS, { recursive: true });
    await writeFile(join(RESULTS, "media-seek-timings.json"), JSON.stringify(report, null, 2));
  });

  it("decodes every cover, banner and logo (contact sheet screenshot)", async () => {
    const sheet = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await sheet.goto(`${base}/test/sheet`);
    await sheet.waitForFunction(() => [...document.images].every((i) => i.complete));
    const broken = await sheet.evaluate(() => [...document.images].filter((i) => i.naturalWidth === 0).map((i) => i.src));
    expect(broken).toEqual([]);
    await sheet.screenshot({ path: join(RESULTS, "demo-images-contact-sheet.png"), fullPage: true });
    await sheet.close();
  });
});

function contactSheet(d: PreparedDemoMedia): string {
  const img = (src: string, w: number, h: number) => `<img src="${src}" width="${w}" height="${h}" title="${src}">`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>demo images</title>
<style>body{margin:16px;background:#fafafa;font:14px sans-serif}section{margin-bottom:18px}
h2{font-size:16px;margin:8px 0}.grid{display:flex;flex-wrap:wrap;gap:8px}img{border-radius:6px;background:#eee}</style></head>
<body><section><h2>Covers (${d.covers.length})</h2><div class="grid">${d.covers.map((c) => img(c, 144, 144)).join("")}
${img("/img/noimage.png", 144, 144)}</div></section>
<section><h2>Banners (${d.banners.length})</h2><div class="grid">${d.banners.map((b) => img(b, 600, 200)).join("")}</div></section>
<section><h2>Partner logos</h2><div class="grid">${Object.values(d.logos).map((l) => img(l, 240, 80)).join("")}</div></section>
</body></html>`;
}
