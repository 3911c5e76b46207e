import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseFile } from "music-metadata";
import { suiteFormMessages as m, type MediaUploaded } from "@contracts/suite-form";
import { AppError, badRequest } from "../../errors.js";

type Sniffed = "mp3" | "mp4-family";

/**
 * What the first bytes say, never the name or the declared type: an ID3 tag or an MPEG audio
 * frame header (layer I-III: ADTS AAC's layer bits are 00) is mp3; an ISO-BMFF `ftyp` box is
 * MP4/M4A (or a HEIF picture, which has no duration and is refused after parsing).
 */
export function sniffMedia(head: Buffer): Sniffed | null {
  if (head.length >= 10 && head.toString("latin1", 0, 3) === "ID3") return "mp3";
  if (head.length >= 4 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0 && ((head[1] >> 1) & 3) !== 0 && (head[2] >> 4) !== 0xf) return "mp3";
  if (head.length >= 12 && head.toString("latin1", 4, 8) === "ftyp") return "mp4-family";
  return null;
}

async function readHead(file: string, bytes = 64): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Duration (whole seconds, > 0) and whether there is a picture track, read from the file; null when unreadable. */
async function probe(file: string): Promise<{ duration: number; video: boolean } | null> {
  try {
    const meta = await parseFile(file, { skipCovers: true, duration: false });
    const seconds = meta.format.duration;
    if (!seconds || !Number.isFinite(seconds) || seconds <= 0 || !meta.format.hasAudio && !meta.format.hasVideo) return null;
    return { duration: Math.max(1, Math.round(seconds)), video: meta.format.hasVideo === true };
  } catch {
    return null;
  }
}

export interface IncomingFile {
  /** The file's bytes as they arrive (the multipart part's stream). */
  stream: Readable;
  /** True once the part was cut at the size limit. */
  truncated: () => boolean;
}

export const mediaDir = (uploadsDir: string) => path.join(uploadsDir, "media");
/** Where a file is written until it is checked: a dot name, never served as media by its URL. */
export const incomingFile = (uploadsDir: string, id: string) => path.join(mediaDir(uploadsDir), `.incoming-${id}`);
export const newUploadId = () => randomBytes(10).toString("hex");

/**
 * A received file checked and kept: its first bytes must say mp3 or MP4, its duration must be
 * readable; then it is renamed to `{id}.{ext}`. Refused or failed, the file is removed.
 */
export async function keepMedia(uploadsDir: string, id: string): Promise<MediaUploaded> {
  const temp = incomingFile(uploadsDir, id);
  let kept = false;
  try {
    const sniffed = sniffMedia(await readHead(temp));
    if (!sniffed) throw badRequest(m.mediaNotMedia);
    const probed = await probe(temp);
    if (!probed) throw badRequest(m.mediaNoDuration);
    const ext = sniffed === "mp3" ? "mp3" : probed.video ? "mp4" : "m4a";
    const name = `${id}.${ext}`;
    const size = (await stat(temp)).size;
    await rename(temp, path.join(mediaDir(uploadsDir), name));
    kept = true;
    return { url: `/uploads/media/${name}`, duration: probed.duration, size, playtype: ext === "mp4" ? "mp4" : "mp3" };
  } finally {
    if (!kept) await rm(temp, { force: true });
  }
}

/**
 * An uploaded media file streamed to DATA_DIR/uploads/media (served at /uploads/media/ with
 * Range), never held in memory: written under a temporary name, then kept by keepMedia.
 * Anything refused or failed leaves no file behind.
 */
export async function storeMedia(uploadsDir: string, incoming: IncomingFile): Promise<MediaUploaded> {
  await mkdir(mediaDir(uploadsDir), { recursive: true });
  const id = newUploadId();
  const temp = incomingFile(uploadsDir, id);
  try {
    await pipeline(incoming.stream, createWriteStream(temp, { flags: "wx" }));
    if (incoming.truncated()) throw new AppError(413, m.mediaTooLarge);
  } catch (err) {
    await rm(temp, { force: true });
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw new AppError(413, m.mediaTooLarge);
    throw err;
  }
  return keepMedia(uploadsDir, id);
}
