/** Unused uploads older than a day are removed; named, recent, hidden and avatar files stay. */
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/types.js";
import { inProcessBus } from "../../events/bus.js";
import { createTestDatabase, testEngines } from "../../testing/test-db.js";
import { catalogueWriteService } from "../catalogue-write/service.js";
import { ORPHAN_MIN_AGE_MS, sweepOrphanUploads } from "./orphan-sweep.js";

describe.each(testEngines())("unused uploads on %s", (engine) => {
  let database: DatabaseHandle;
  let uploads: string;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    uploads = await mkdtemp(path.join(tmpdir(), "dj-uploads-"));
  });
  afterAll(async () => {
    await database?.close();
    await rm(uploads, { recursive: true, force: true });
  });

  async function file(relative: string, ageMs: number) {
    const full = path.join(uploads, relative);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, "x");
    const at = new Date(Date.now() - ageMs);
    await utimes(full, at, at);
  }

  it("removes only old files nobody names", async () => {
    const old = ORPHAN_MIN_AGE_MS + 60_000;
    await file("covers/used.webp", old);
    await file("media/used.mp3", old);
    await file("blocks/used.webp", old);
    await file("covers/orphan.webp", old);
    await file("media/orphan.m4a", old);
    await file("blocks/orphan.webp", old);
    await file("covers/fresh.webp", 60_000); // a form still open
    await file("media/.incoming-abc", old); // an upload in progress
    await file("avatars/someone.webp", old); // the profile's own
    const writes = catalogueWriteService(database.db, inProcessBus());
    await writes.createItem({ kind: "mix", title: "上传清理测试", cover: "/uploads/covers/used.webp", playUrl: "/uploads/media/used.mp3", sourceSite: "local" });
    const block = await writes.createBlock({ name: "轮播", position: "indexfocus" });
    await writes.createBlockItems([{ blockId: block, name: "图", url: "/", image: "/uploads/blocks/used.webp" }]);

    const { removed } = await sweepOrphanUploads({ db: database.db, uploadsDir: uploads });
    expect(removed.sort()).toEqual(["/uploads/blocks/orphan.webp", "/uploads/covers/orphan.webp", "/uploads/media/orphan.m4a"]);
    expect((await readdir(path.join(uploads, "covers"))).sort()).toEqual(["fresh.webp", "used.webp"]);
    expect((await readdir(path.join(uploads, "media"))).sort()).toEqual([".incoming-abc", "used.mp3"]);
    expect(await readdir(path.join(uploads, "blocks"))).toEqual(["used.webp"]);
    expect(await readdir(path.join(uploads, "avatars"))).toEqual(["someone.webp"]);
    // A second sweep finds nothing more; a missing folder is no error.
    expect((await sweepOrphanUploads({ db: database.db, uploadsDir: uploads })).removed).toEqual([]);
    expect((await sweepOrphanUploads({ db: database.db, uploadsDir: path.join(uploads, "none") })).removed).toEqual([]);
  });
});
