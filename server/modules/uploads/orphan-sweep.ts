import { readdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { like, sql } from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
import { blockItems, items } from "../../db/schema/index.js";
import type { AppDatabase, DbLogger } from "../../db/types.js";

/**
 * Uploaded files nobody uses: a cover or media file uploaded in the suite form that was never
 * saved, or replaced by a later upload. They are removed once they are older than
 * `olderThanMs` (a form may stay open for hours) and no item or block item names them.
 * Avatars are left alone: the profile replaces its own. Hidden files (`.incoming-…`, chunk
 * folders) belong to uploads in progress, which clean up after themselves.
 */
export const SWEPT_FOLDERS = ["covers", "media", "blocks"] as const;
export const ORPHAN_MIN_AGE_MS = 24 * 3600_000;

/** Every `/uploads/…` address the catalogue still names (one scan: the sweep runs rarely). */
async function namedUploads(db: AppDatabase): Promise<Set<string>> {
  const uploaded = "/uploads/%";
  const rows = await union(
    db.select({ url: sql<string>`${items.cover}` }).from(items).where(like(items.cover, uploaded)),
    db.select({ url: items.playUrl }).from(items).where(like(items.playUrl, uploaded)),
    db.select({ url: blockItems.image }).from(blockItems).where(like(blockItems.image, uploaded)),
  );
  return new Set(rows.map((r) => r.url));
}

export async function sweepOrphanUploads({
  db,
  uploadsDir,
  now = Date.now(),
  olderThanMs = ORPHAN_MIN_AGE_MS,
  logger,
}: {
  db: AppDatabase;
  uploadsDir: string;
  now?: number;
  olderThanMs?: number;
  logger?: Pick<DbLogger, "info" | "warn">;
}): Promise<{ removed: string[]; kept: number }> {
  const named = await namedUploads(db);
  const removed: string[] = [];
  let kept = 0;
  for (const folder of SWEPT_FOLDERS) {
    const dir = path.join(uploadsDir, folder);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith(".")) continue;
      const url = `/uploads/${folder}/${name}`;
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile() || named.has(url) || now - info.mtimeMs < olderThanMs) {
        kept++;
        continue;
      }
      try {
        await unlink(file);
        removed.push(url);
      } catch (err) {
        logger?.warn({ err, file }, "could not remove an unused upload");
      }
    }
  }
  if (removed.length > 0) logger?.info({ removed: removed.length, kept }, "unused uploads removed");
  return { removed, kept };
}
