/**
 * Durations of the demo formats, read from the files themselves so the catalogue never
 * carries a made-up length: MP4/M4A from the movie header, HLS from its playlist, mp3 by frames.
 */
import { parseMp3 } from "./mp3-frames.js";

/** Walks ISO-BMFF boxes in [start, end) and returns the payload range of the first `type`. */
function findBox(buf: Buffer, type: string, start: number, end: number): [number, number] | null {
  let at = start;
  while (at + 8 <= end) {
    let size = buf.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header || at + size > end) return null;
    if (buf.toString("latin1", at + 4, at + 8) === type) return [at + header, at + size];
    at += size;
  }
  return null;
}

/** Duration in seconds of an MP4/M4A file, from moov/mvhd. */
export function mp4DurationSec(buf: Buffer): number {
  const moov = findBox(buf, "moov", 0, buf.length);
  const mvhd = moov && findBox(buf, "mvhd", moov[0], moov[1]);
  if (!mvhd) throw new Error("no moov/mvhd box");
  const [at] = mvhd;
  const v1 = buf[at] === 1;
  const timescale = buf.readUInt32BE(at + (v1 ? 20 : 12));
  const duration = v1 ? Number(buf.readBigUInt64BE(at + 24)) : buf.readUInt32BE(at + 16);
  if (!timescale) throw new Error("mvhd timescale is 0");
  return duration / timescale;
}

/** Duration in seconds of a VOD HLS media playlist: the sum of its #EXTINF durations. */
export function hlsDurationSec(playlist: string): number {
  let total = 0;
  for (const m of playlist.matchAll(/^#EXTINF:\s*([\d.]+)/gm)) total += Number(m[1]);
  if (!total) throw new Error("no #EXTINF segments in playlist");
  return total;
}

/** Duration in seconds of an MPEG audio file, counted frame by frame. */
export function mp3DurationSec(buf: Buffer): number {
  return parseMp3(buf).durationSec;
}

export const round3 = (n: number): number => Math.round(n * 1000) / 1000;
