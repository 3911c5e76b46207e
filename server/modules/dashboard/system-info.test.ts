import { link, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CacheRegistry } from "../../lib/cache.js";
import { DATA_DIR_SIZE_TTL_MS, dataDirSize, directorySize } from "./system-info.js";

describe("the data directory's size", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "dash-size-"));
    await mkdir(path.join(dir, "a", "b"), { recursive: true });
    await writeFile(path.join(dir, "one.bin"), Buffer.alloc(1000));
    await writeFile(path.join(dir, "a", "b", "two.bin"), Buffer.alloc(2000));
    // Another name of the same file, and a link pointing outside: neither adds bytes.
    await link(path.join(dir, "one.bin"), path.join(dir, "a", "same.bin"));
    await symlink("/usr", path.join(dir, "a", "usr"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("sums every file once, without following links", async () => {
    expect(await directorySize(dir)).toEqual({ bytes: 3000, partial: false });
  });

  it("stops at its entry limit and says so", async () => {
    expect((await directorySize(dir, 2)).partial).toBe(true);
  });

  it("is walked at most once a minute; later calls get the last size while the next walk runs", async () => {
    let now = 0;
    const size = dataDirSize(dir, new CacheRegistry({ now: () => now }));
    expect((await size()).bytes).toBe(3000);
    await writeFile(path.join(dir, "three.bin"), Buffer.alloc(500));
    expect((await size()).bytes).toBe(3000);
    now += DATA_DIR_SIZE_TTL_MS + 1;
    expect((await size()).bytes).toBe(3000); // the kept size, a walk started
    await expect.poll(async () => (await size()).bytes).toBe(3500);
  });
});
