import { mkdtemp, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LONG_MIX_TRACKS, REPEATS_PER_TRACK } from "./long-mix.js";
import { hlsDurationSec, mp4DurationSec } from "./media-probe.js";
import { parseMp3 } from "./mp3-frames.js";
import { LONG_MIX_PATH, prepareDemoMedia, type PreparedDemoMedia } from "./prepare-demo-media.js";

let dataDir: string;
let first: PreparedDemoMedia;
const fileOf = (url: string) => join(dataDir, url.replace(/^\//, ""));

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "demo-media-"));
  first = await prepareDemoMedia(dataDir);
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe("prepareDemoMedia", () => {
  it("returns site-relative URLs of files that exist, with MIME types", async () => {
    const all = [...first.audio, first.longMix, first.hls, first.video];
    for (const f of all) {
      expect(f.url).toMatch(/^\/media\/demo\//);
      expect((await stat(fileOf(f.url))).size).toBeGreaterThan(0);
    }
    for (const url of [...first.covers, ...first.banners, ...Object.values(first.logos)]) {
      expect((await stat(fileOf(url))).isFile()).toBe(true);
    }
    expect(new Set(first.audio.map((a) => a.mimeType))).toEqual(new Set(["audio/mpeg", "audio/mp4"]));
    expect(first.audio.filter((a) => a.mimeType === "audio/mpeg").length).toBeGreaterThanOrEqual(3);
    expect(first.hls.mimeType).toBe("application/vnd.apple.mpegurl");
    expect(first.video.mimeType).toBe("video/mp4");
    expect(first.covers.length).toBeGreaterThanOrEqual(16);
    expect(first.banners.length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(first.logos).sort()).toEqual(["172minx", "djuu", "local", "vvvdj"]);
  });

  it("reports durations read from the media themselves", async () => {
    for (const a of first.audio) expect(a.durationSec).toBeCloseTo(29.989, 2);
    expect(first.video.durationSec).toBeCloseTo(mp4DurationSec(await readFile(fileOf(first.video.url))), 3);
    expect(first.video.durationSec).toBeGreaterThanOrEqual(20);
    const playlist = (await readFile(fileOf(first.hls.url))).toString("utf8");
    expect(first.hls.durationSec).toBeCloseTo(hlsDurationSec(playlist), 3);
    expect(first.hls.durationSec).toBeGreaterThanOrEqual(60);
  });

  it("builds a clean CBR long mix of more than an hour, by its frames", async () => {
    const mix = parseMp3(await readFile(fileOf(first.longMix.url)));
    expect(mix.cbr).toBe(true);
    expect(mix.junkBytes).toBe(0);
    expect(mix.hasXingFrame).toBe(false);
    expect(mix.offsets.length).toBe(LONG_MIX_TRACKS * REPEATS_PER_TRACK * 1148);
    expect(mix.durationSec).toBeGreaterThanOrEqual(3600);
    expect(first.longMix.durationSec).toBeCloseTo(mix.durationSec, 2);
    expect(first.longMixTracks).toHaveLength(LONG_MIX_TRACKS);
    expect(first.longMixTracks[1].startSec).toBeCloseTo(REPEATS_PER_TRACK * 29.989, 1);
  });

  it("is idempotent: a second run rewrites nothing and returns the same answer", async () => {
    const mixFile = join(dataDir, "media/demo", LONG_MIX_PATH);
    const cover = fileOf(first.covers[0]);
    const before = await Promise.all([stat(mixFile), stat(cover)]);
    const started = performance.now();
    const second = await prepareDemoMedia(dataDir);
    const elapsed = performance.now() - started;
    const after = await Promise.all([stat(mixFile), stat(cover)]);
    expect(second).toEqual(first);
    expect(after.map((s) => [s.ino, s.mtimeMs])).toEqual(before.map((s) => [s.ino, s.mtimeMs]));
    expect(elapsed).toBeLessThan(2000);
  });

  it("repairs a truncated mix and a corrupted copy", async () => {
    const mixFile = join(dataDir, "media/demo", LONG_MIX_PATH);
    const cover = fileOf(first.covers[0]);
    const good = await readFile(cover);
    await truncate(mixFile, 1000);
    await writeFile(cover, Buffer.alloc(good.length));
    await prepareDemoMedia(dataDir);
    expect(parseMp3(await readFile(mixFile)).durationSec).toBeCloseTo(first.longMix.durationSec, 2);
    expect((await readFile(cover)).equals(good)).toBe(true);
  });
});
