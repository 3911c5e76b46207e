import { randomBytes } from "node:crypto";
import { mkdir, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError, badRequest } from "../errors.js";
import { multipartErrorStatus } from "./multipart-errors.js";

/**
 * Images the back office uploads (suite covers, block pictures):
 * the bytes are decoded (never the name or type trusted), turned upright, shrunk to fit a box,
 * and re-encoded as WebP without metadata, as avatars are (modules/profile/avatar-service.ts).
 */

/**
 * sharp (libvips) loaded on the first upload, not at start-up: ~20 MB of RSS that a server which
 * never receives a picture does not need (ADR 0037).
 */
export async function loadSharp() {
  return (await import("sharp")).default;
}

/** Largest picture decoded: 50 megapixels; sharp refuses a decompression bomb before allocating it. */
export const UPLOAD_MAX_PIXELS = 50_000_000;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"]);
const decoderOptions = { limitInputPixels: UPLOAD_MAX_PIXELS, failOn: "error" } as const;

export interface ImageBox {
  width: number;
  height: number;
  /** `inside`: the whole picture, no larger than the box (logos); `cover`: cropped to the box (banners). */
  fit: "inside" | "cover";
  /** Enlarge a smaller picture to the box (covers are always the same square); default no. */
  enlarge?: boolean;
}

/** The picture as WebP within `box`; 400 with `notImage` when the bytes are not a usable image. */
export async function toWebp(bytes: Buffer, box: ImageBox, notImage: string): Promise<Buffer> {
  const sharp = await loadSharp();
  let format: string | undefined;
  try {
    ({ format } = await sharp(bytes, decoderOptions).metadata());
  } catch {
    throw badRequest(notImage);
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw badRequest(notImage);
  try {
    return await sharp(bytes, decoderOptions)
      .rotate()
      .resize(box.width, box.height, { fit: box.fit, position: "centre", withoutEnlargement: !box.enlarge })
      .webp({ quality: 84 })
      .toBuffer();
  } catch {
    throw badRequest(notImage);
  }
}

/**
 * Stores re-encoded uploads under `uploadsDir/<folder>` (served at /uploads/<folder>/ by the media
 * routes) with a fresh random name each time (proxies may keep /uploads/ for an hour).
 */
export function imageStore(uploadsDir: string, folder: string) {
  const dir = path.join(uploadsDir, folder);
  const prefix = `/uploads/${folder}/`;
  return {
    async save(bytes: Buffer, box: ImageBox, notImage: string): Promise<string> {
      const webp = await toWebp(bytes, box, notImage);
      await mkdir(dir, { recursive: true });
      const name = `${Date.now().toString(36)}-${randomBytes(8).toString("hex")}.webp`;
      await writeFile(path.join(dir, name), webp, { flag: "wx" });
      return `${prefix}${name}`;
    },
    /** Removes a file this store wrote (other addresses are left alone); missing files are fine. */
    async remove(url: string | null | undefined): Promise<void> {
      const match = url ? /^\/uploads\/[a-z-]+\/([0-9a-z]+-[0-9a-f]{16}\.webp)$/u.exec(url) : null;
      if (!match || !url!.startsWith(prefix)) return;
      await unlink(path.join(dir, match[1]!)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT") throw err;
      });
    },
  };
}

/** A multipart upload's one file part (field `field`), at most the scope's byte limit. */
export async function readUploadPart(
  request: { file(): Promise<{ fieldname: string; toBuffer(): Promise<Buffer> } | undefined> },
  field: string,
  texts: { missing: string; tooLarge: string; notImage: string },
): Promise<Buffer> {
  try {
    const part = await request.file();
    if (!part || part.fieldname !== field) throw badRequest(texts.missing);
    return await part.toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw new AppError(413, texts.tooLarge);
    const status = multipartErrorStatus(err);
    if (status >= 400 && status < 500) throw badRequest(texts.notImage);
    throw err;
  }
}
