import { randomBytes } from "node:crypto";
import { mkdir, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { profileMessages as msg } from "@contracts/account-profile";
import type { AppDatabase, DbLogger } from "../../db/types.js";
import { badRequest, unauthorized } from "../../errors.js";
import { loadSharp } from "../../lib/image-upload.js";
import { profileRepo } from "./profile-repo.js";

/** Side of the square avatar we keep (shown at 28 to 96 px; 256 covers 2x screens). */
export const AVATAR_SIZE = 256;
/**
 * Largest picture we decode: 50 megapixels (a 48 MP phone photo). A few KB of PNG can claim
 * 20000 × 20000 pixels; sharp refuses such a bomb before allocating it.
 */
export const AVATAR_MAX_PIXELS = 50_000_000;
/** What sharp reports for the formats a browser uploads as a photo (no SVG: that is a document). */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"]);

const decoderOptions = { limitInputPixels: AVATAR_MAX_PIXELS, failOn: "error" } as const;

/**
 * The bytes decoded as an image (never the file's name or type), upright per its EXIF
 * orientation, cropped to a centred square, re-encoded as WebP without any metadata.
 */
export async function toAvatarWebp(bytes: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  let format: string | undefined;
  try {
    ({ format } = await sharp(bytes, decoderOptions).metadata());
  } catch {
    throw badRequest(msg.avatarNotImage);
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw badRequest(msg.avatarNotImage);
  try {
    // sharp keeps no metadata unless asked (withMetadata); rotate() applies EXIF orientation first.
    return await sharp(bytes, decoderOptions)
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: "cover", position: "centre" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    // Truncated, corrupt or too many pixels: not an image we can use.
    throw badRequest(msg.avatarNotImage);
  }
}

/** Avatars under DATA_DIR/uploads/avatars, served at /uploads/avatars/ by the media routes. */
export function avatarService(db: AppDatabase, { uploadsDir, logger }: { uploadsDir: string; logger: Pick<DbLogger, "warn"> }) {
  const repo = profileRepo(db);
  const dir = path.join(uploadsDir, "avatars");
  const ownFile = (userId: number, url: string | null) => {
    const match = url ? new RegExp(`^/uploads/avatars/(${userId}-[0-9a-f]+\\.webp)$`).exec(url) : null;
    return match ? path.join(dir, match[1]) : null;
  };
  return {
    /** Stores the new avatar, points the member at it, and removes their previous file. Answers its URL. */
    async replace(userId: number, upload: Buffer): Promise<string> {
      const webp = await toAvatarWebp(upload);
      await mkdir(dir, { recursive: true });
      // A new name each time: browsers and proxies may keep /uploads/ for an hour.
      const name = `${userId}-${randomBytes(8).toString("hex")}.webp`;
      const file = path.join(dir, name);
      await writeFile(file, webp, { flag: "wx" });
      const url = `/uploads/avatars/${name}`;
      let swapped: { previous: string | null } | undefined;
      try {
        swapped = await repo.swapAvatar(userId, url);
      } catch (err) {
        await unlink(file).catch(() => undefined);
        throw err;
      }
      if (!swapped) {
        await unlink(file).catch(() => undefined);
        throw unauthorized("请先登录");
      }
      const previous = ownFile(userId, swapped.previous);
      if (previous) {
        await unlink(previous).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== "ENOENT") logger.warn({ err, file: previous }, "previous avatar not removed");
        });
      }
      return url;
    },
  };
}

export type AvatarService = ReturnType<typeof avatarService>;
