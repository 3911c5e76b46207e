import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { COVER_SIZE, suiteFormMessages as m } from "@contracts/suite-form";
import { badRequest } from "../../errors.js";
import { AVATAR_MAX_PIXELS } from "../profile/avatar-service.js";

/** What sharp reports for the formats a browser uploads as a picture (no SVG: that is a document). */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"]);
const decoderOptions = { limitInputPixels: AVATAR_MAX_PIXELS, failOn: "error" } as const;

/**
 * A cover as we keep it, like avatars (ADR 0018): the bytes decoded as an image (never the
 * file's name or type), upright per EXIF, a centred square of COVER_SIZE, WebP without metadata.
 */
export async function toCoverWebp(bytes: Buffer): Promise<Buffer> {
  let format: string | undefined;
  try {
    ({ format } = await sharp(bytes, decoderOptions).metadata());
  } catch {
    throw badRequest(m.coverNotImage);
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw badRequest(m.coverNotImage);
  try {
    return await sharp(bytes, decoderOptions)
      .rotate()
      .resize(COVER_SIZE, COVER_SIZE, { fit: "cover", position: "centre" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw badRequest(m.coverNotImage);
  }
}

/** Stores a cover under DATA_DIR/uploads/covers (served at /uploads/covers/); answers its URL. */
export async function storeCover(uploadsDir: string, bytes: Buffer): Promise<string> {
  const webp = await toCoverWebp(bytes);
  const dir = path.join(uploadsDir, "covers");
  await mkdir(dir, { recursive: true });
  // A new name each time: /uploads/ may be kept an hour by browsers and proxies.
  const name = `${randomBytes(10).toString("hex")}.webp`;
  await writeFile(path.join(dir, name), webp, { flag: "wx" });
  return `/uploads/covers/${name}`;
}
