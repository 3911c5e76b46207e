import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { MEDIA_CHUNK_MAX_BYTES, MEDIA_MAX_BYTES, suiteFormMessages as m, type MediaUploaded } from "@contracts/suite-form";
import { AppError, conflict, notFound } from "../../errors.js";
import { incomingFile, keepMedia, mediaDir, newUploadId } from "./media-upload.js";

/** A piecewise upload nobody has added to for this long is removed (the admin left). */
export const STALE_UPLOAD_MS = 24 * 3600_000;

/**
 * Media uploaded in pieces (ADR 0029): each piece is a request of at most 8 MiB appended to
 * `.incoming-{id}` at the offset the browser names (which must be the bytes received so far, so
 * a retried piece never doubles), then `finish` checks and keeps the file like a one-piece
 * upload. One piece at a time per upload in this process.
 */
export function mediaChunks(uploadsDir: string) {
  const busy = new Set<string>();

  async function received(id: string): Promise<number> {
    try {
      return (await stat(incomingFile(uploadsDir, id))).size;
    } catch {
      throw notFound(m.uploadGone);
    }
  }

  async function sweepStale(now = Date.now()) {
    const dir = mediaDir(uploadsDir);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!name.startsWith(".incoming-")) continue;
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => null);
      if (info && now - info.mtimeMs > STALE_UPLOAD_MS) await rm(file, { force: true });
    }
  }

  return {
    async start(): Promise<{ uploadId: string }> {
      await mkdir(mediaDir(uploadsDir), { recursive: true });
      await sweepStale();
      const uploadId = newUploadId();
      await writeFile(incomingFile(uploadsDir, uploadId), "", { flag: "wx" });
      return { uploadId };
    },

    /** Appends one piece at `offset`; answers the bytes received. Past 1 GiB the upload is dropped (413). */
    async append(id: string, offset: number, body: Readable, declaredLength: number | undefined): Promise<{ received: number }> {
      if (busy.has(id)) throw conflict(m.chunkBusy);
      busy.add(id);
      try {
        const have = await received(id);
        if (offset !== have) throw new AppError(409, m.chunkOffset, { received: have });
        if (declaredLength !== undefined && declaredLength > MEDIA_CHUNK_MAX_BYTES) throw new AppError(413, m.chunkTooLarge);
        if (declaredLength !== undefined && have + declaredLength > MEDIA_MAX_BYTES) {
          await rm(incomingFile(uploadsDir, id), { force: true });
          throw new AppError(413, m.mediaTooLarge);
        }
        let bytes = 0;
        const limit = new Transform({
          transform(chunk: Buffer, _enc, done) {
            bytes += chunk.length;
            if (bytes > MEDIA_CHUNK_MAX_BYTES) return done(new AppError(413, m.chunkTooLarge));
            if (have + bytes > MEDIA_MAX_BYTES) return done(new AppError(413, m.mediaTooLarge));
            done(null, chunk);
          },
        });
        try {
          await pipeline(body, limit, createWriteStream(incomingFile(uploadsDir, id), { flags: "r+", start: have }));
        } catch (err) {
          // A piece cut short is not half-kept: the upload goes on from what it had (or is dropped past 1 GiB).
          if (err instanceof AppError && err.message === m.mediaTooLarge) await rm(incomingFile(uploadsDir, id), { force: true });
          else await truncateTo(incomingFile(uploadsDir, id), have);
          throw err;
        }
        return { received: have + bytes };
      } finally {
        busy.delete(id);
      }
    },

    async finish(id: string): Promise<MediaUploaded> {
      if (busy.has(id)) throw conflict(m.chunkBusy);
      await received(id);
      return keepMedia(uploadsDir, id);
    },

    async cancel(id: string): Promise<void> {
      await rm(incomingFile(uploadsDir, id), { force: true });
    },
  };
}

async function truncateTo(file: string, size: number) {
  await truncate(file, size).catch(() => undefined);
}

export type MediaChunks = ReturnType<typeof mediaChunks>;
