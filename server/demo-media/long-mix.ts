/**
 * The long demo mix: whole MPEG frames of the demo loops chained into one CBR mp3 of about
 * 66 minutes, built at start-up in pure Node (a 63 MB file is not worth committing).
 * It works because the loops are clean CBR streams (no tags, no Xing frame) cut at frame
 * boundaries, with the bit reservoir off, so any frame can follow any other. Without a Xing
 * header, players take the duration from size ÷ bitrate and seek by proportional byte offset:
 * exact for CBR.
 */
import { randomBytes } from "node:crypto";
import { open, rename, rm, stat } from "node:fs/promises";
import { mainDataBegin, parseMp3, readFrameHeader } from "./mp3-frames.js";

/** 11 "tracks" of 12 loop repeats (~6 min each): 132 loops, 65 min 58.5 s. */
export const LONG_MIX_TRACKS = 11;
export const REPEATS_PER_TRACK = 12;

export interface LongMixTrack {
  /** Index into the loops given to buildLongMix. */
  loop: number;
  startSec: number;
  durationSec: number;
}

export interface LongMix {
  bytes: number;
  frames: number;
  durationSec: number;
  tracks: LongMixTrack[];
  /** False when an identical file was already there. */
  written: boolean;
}

interface CleanLoop {
  audio: Buffer;
  frames: number;
  durationSec: number;
}

/** Checks a loop can be chained: CBR, no junk, no Xing frame, no bit reservoir use. */
function cleanLoop(buf: Buffer, name: string, expect?: { bitrateKbps: number; sampleRate: number; channels: number }): CleanLoop & { format: { bitrateKbps: number; sampleRate: number; channels: number } } {
  const mp3 = parseMp3(buf);
  const problem =
    !mp3.cbr ? "not CBR" : mp3.junkBytes > 0 ? "has non-frame bytes" : mp3.hasXingFrame ? "has a Xing/Info frame" : null;
  if (problem) throw new Error(`demo loop ${name} ${problem}`);
  for (const at of mp3.offsets) {
    if (mainDataBegin(buf, at, readFrameHeader(buf, at)!) !== 0) throw new Error(`demo loop ${name} uses the bit reservoir`);
  }
  const format = { bitrateKbps: mp3.bitrateKbps, sampleRate: mp3.sampleRate, channels: mp3.channels };
  if (expect && JSON.stringify(expect) !== JSON.stringify(format)) {
    throw new Error(`demo loop ${name} is ${JSON.stringify(format)}, the others ${JSON.stringify(expect)}`);
  }
  const first = mp3.offsets[0];
  const last = mp3.offsets.length - 1;
  return {
    audio: buf.subarray(first, mp3.offsets[last] + mp3.lengths[last]),
    frames: mp3.offsets.length,
    durationSec: mp3.durationSec,
    format,
  };
}

/** Loop index of each track: the loops in turn. */
export function longMixOrder(loopCount: number): number[] {
  return Array.from({ length: LONG_MIX_TRACKS }, (_, t) => t % loopCount);
}

/**
 * Writes the mix to `file` unless a file of exactly the planned size is already there.
 * Written under a temporary name and renamed, so a crash or a concurrent start never leaves
 * a half-written mix behind.
 */
export async function buildLongMix(file: string, loops: { name: string; data: Buffer }[]): Promise<LongMix> {
  if (loops.length === 0) throw new Error("no demo loops to build the long mix from");
  const clean: CleanLoop[] = [];
  let format: { bitrateKbps: number; sampleRate: number; channels: number } | undefined;
  for (const l of loops) {
    const c = cleanLoop(l.data, l.name, format);
    format ??= c.format;
    clean.push(c);
  }
  const parts: Buffer[] = [];
  const tracks: LongMixTrack[] = [];
  let t = 0;
  let frames = 0;
  for (const loop of longMixOrder(clean.length)) {
    const c = clean[loop];
    tracks.push({ loop, startSec: t, durationSec: c.durationSec * REPEATS_PER_TRACK });
    for (let r = 0; r < REPEATS_PER_TRACK; r++) parts.push(c.audio);
    t += c.durationSec * REPEATS_PER_TRACK;
    frames += c.frames * REPEATS_PER_TRACK;
  }
  const bytes = parts.reduce((n, p) => n + p.length, 0);
  const result = { bytes, frames, durationSec: t, tracks };
  const existing = await stat(file).catch(() => null);
  if (existing?.isFile() && existing.size === bytes) return { ...result, written: false };

  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    const fh = await open(tmp, "w");
    try {
      // The same few loop buffers, referenced many times: no 63 MB copy in memory.
      for (let i = 0; i < parts.length; i += 64) {
        const batch = parts.slice(i, i + 64);
        const { bytesWritten } = await fh.writev(batch);
        if (bytesWritten !== batch.reduce((n, p) => n + p.length, 0)) throw new Error(`short write to ${tmp}`);
      }
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return { ...result, written: true };
}
