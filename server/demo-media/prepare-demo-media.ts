/**
 * Puts the demo media where the media routes serve it: the committed files of assets/demo are
 * copied to DATA_DIR/media/demo, and the long mix is generated there from the mp3 loops.
 * Idempotent and cheap on every start: identical files are left alone.
 */
import { copyFile, mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { basename, dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { DemoMedia, DemoMediaFile } from "./demo-media.types.js";
import { buildLongMix, type LongMixTrack } from "./long-mix.js";
import { hlsDurationSec, mp3DurationSec, mp4DurationSec, round3 } from "./media-probe.js";
import { mimeTypeOf } from "../modules/media/mime.js";

/** The committed demo assets (repository root/assets/demo). */
export const DEMO_ASSETS_DIR = fileURLToPath(new URL("../../assets/demo/", import.meta.url));
/** Where the media routes expose DATA_DIR/media. */
export const MEDIA_URL_PREFIX = "/media";
export const LONG_MIX_PATH = "mix/demo-mix-66min.mp3";

export interface PrepareDemoMediaOptions {
  /** Defaults to the repository's assets/demo. */
  assetsDir?: string;
}

export interface PreparedDemoMedia extends DemoMedia {
  /** Where each loop-track of the long mix starts (for a djlist with time stamps). */
  longMixTracks: (LongMixTrack & { loopUrl: string })[];
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith("."))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join("/"))
    .sort();
}

async function sameFile(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([stat(a), stat(b).catch(() => null)]);
  if (!sb?.isFile() || sa.size !== sb.size) return false;
  const [ba, bb] = await Promise.all([readFile(a), readFile(b)]);
  return ba.equals(bb);
}

/** Copies via a temporary name, so a concurrent start never sees a half-copied file. */
async function copyAtomically(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  const tmp = `${to}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await copyFile(from, tmp);
    await rename(tmp, to);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

export async function prepareDemoMedia(dataDir: string, opts: PrepareDemoMediaOptions = {}): Promise<PreparedDemoMedia> {
  const assetsDir = opts.assetsDir ?? DEMO_ASSETS_DIR;
  const demoDir = join(dataDir, "media", "demo");
  const files = await listFiles(assetsDir);
  for (const rel of files) {
    const from = join(assetsDir, rel);
    const to = join(demoDir, rel);
    if (!(await sameFile(from, to))) await copyAtomically(from, to);
  }

  const url = (rel: string) => `${MEDIA_URL_PREFIX}/demo/${rel}`;
  const under = (folder: string, ...exts: string[]) =>
    files.filter((f) => f.startsWith(`${folder}/`) && exts.some((e) => f.endsWith(e)));
  const read = (rel: string) => readFile(join(assetsDir, rel));
  const entry = (rel: string, durationSec: number): DemoMediaFile => ({
    url: url(rel),
    durationSec: round3(durationSec),
    mimeType: mimeTypeOf(rel),
  });
  const required = <T>(list: T[], what: string): T[] => {
    if (list.length === 0) throw new Error(`demo assets in ${assetsDir} have no ${what}`);
    return list;
  };

  const mp3s = required(under("audio", ".mp3"), "mp3 loops");
  const loops = await Promise.all(mp3s.map(async (rel) => ({ name: rel, data: await read(rel) })));
  const audio: DemoMediaFile[] = [];
  for (const rel of under("audio", ".mp3", ".m4a")) {
    const data = await read(rel);
    audio.push(entry(rel, rel.endsWith(".mp3") ? mp3DurationSec(data) : mp4DurationSec(data)));
  }

  const mixFile = join(demoDir, LONG_MIX_PATH);
  await mkdir(dirname(mixFile), { recursive: true });
  const mix = await buildLongMix(mixFile, loops);

  const [playlist] = required(under("hls", ".m3u8"), "HLS playlist");
  const [video] = required(under("video", ".mp4"), "mp4 video");
  const logos: Record<string, string> = {};
  for (const rel of under("logos", ".webp", ".png", ".svg", ".jpg")) logos[basename(rel).replace(/\.[^.]+$/, "")] = url(rel);

  return {
    audio,
    longMix: entry(LONG_MIX_PATH, mix.durationSec),
    hls: entry(playlist, hlsDurationSec((await read(playlist)).toString("utf8"))),
    video: entry(video, mp4DurationSec(await read(video))),
    covers: required(under("covers", ".webp", ".jpg", ".png", ".svg"), "covers").map(url),
    banners: required(under("banners", ".webp", ".jpg", ".png", ".svg"), "banners").map(url),
    logos,
    longMixTracks: mix.tracks.map((t) => ({ ...t, startSec: round3(t.startSec), durationSec: round3(t.durationSec), loopUrl: url(loops[t.loop].name) })),
  };
}
