import { COVER_SIZE, suiteFormMessages as m } from "@contracts/suite-form";
import { imageStore } from "../../lib/image-upload.js";

/**
 * A cover as we keep it, like avatars (ADR 0018): the bytes decoded as an image (never the
 * file's name or type), upright per EXIF, a centred square of COVER_SIZE, WebP without metadata,
 * stored under DATA_DIR/uploads/covers (served at /uploads/covers/); answers its URL.
 */
export function storeCover(uploadsDir: string, bytes: Buffer): Promise<string> {
  return imageStore(uploadsDir, "covers").save(bytes, { width: COVER_SIZE, height: COVER_SIZE, fit: "cover", enlarge: true }, m.coverNotImage);
}
