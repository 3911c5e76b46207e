import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogger, pgliteTemplate } from "../testing/test-db.js";
import { openPgliteDatabase } from "./open.js";
import { extractArchive, isInitialised } from "./pglite-datadir.js";
import { queryRows } from "./sql.js";

describe("the embedded database's directory (ADR 0042)", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "djdatadir-"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("sets a never-finished directory aside and creates the database anew, with no staging left behind", { timeout: 120_000 }, async () => {
    const dir = path.join(root, "site", "db");
    await mkdir(path.join(dir, "base"), { recursive: true });
    await writeFile(path.join(dir, "PG_VERSION"), "17\n"); // initdb's first file, never its pg_control
    await mkdir(`${dir}.initdb`, { recursive: true }); // a staging directory of a killed first start
    const logger = captureLogger();
    const handle = await openPgliteDatabase(dir, { logger });
    await handle.close();
    expect(await isInitialised(dir)).toBe(true);
    const siblings = (await readdir(path.dirname(dir))).sort();
    expect(siblings.filter((n) => n !== "db")).toEqual([expect.stringMatching(/^db\.incomplete-\d+$/)]);
    expect(logger.lines.map((l) => l.msg)).toContain("created the embedded database");
    expect(logger.lines.find((l) => l.level === "warn")?.msg).toMatch(/never fully created/);
  });

  it("copies a live database consistently: a transaction under way is either wholly in the copy or not at all", async () => {
    const dir = path.join(root, "live", "db");
    await mkdir(dir, { recursive: true });
    await (await openPgliteDatabase(dir, { loadDataDir: await pgliteTemplate("migrated") })).close();
    const handle = await openPgliteDatabase(dir);
    const order: string[] = [];
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let begun!: () => void;
      const inside = new Promise<void>((r) => (begun = r));
      const transaction = handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into app_settings (key, value) values ('tx-first', '1'::jsonb)`);
        begun();
        await held;
        await tx.execute(sql`insert into app_settings (key, value) values ('tx-second', '1'::jsonb)`);
      }).then(() => order.push("committed"));
      await inside;
      const copying = handle.archiveDataDirTo!(path.join(root, "copy.tar")).then((r) => (order.push("copied"), r));
      await new Promise((r) => setTimeout(r, 100));
      expect(order).toEqual([]); // the copy waits for the transaction
      release();
      const [, copied] = await Promise.all([transaction, copying]);
      expect(order).toEqual(["committed", "copied"]);
      expect(copied.bytes).toBeGreaterThan(1_000_000);
    } finally {
      await handle.close();
    }
    await extractArchive(path.join(root, "copy.tar"), path.join(root, "copy", "db"));
    const copy = await openPgliteDatabase(path.join(root, "copy", "db"));
    try {
      const keys = await queryRows<{ key: string }>(copy.db, sql`select key from app_settings where key like 'tx-%' order by key`);
      expect(keys.map((k) => k.key)).toEqual(["tx-first", "tx-second"]);
    } finally {
      await copy.close();
    }
  });

  it("a database that crash recovery cannot open fails with the way out, and leaves the directory as it was", async () => {
    const dir = path.join(root, "damaged", "db");
    await mkdir(dir, { recursive: true });
    await (await openPgliteDatabase(dir, { loadDataDir: await pgliteTemplate("migrated") })).close();
    await writeFile(path.join(dir, "global", "pg_control"), ""); // what no kill can do: a disk fault
    await expect(openPgliteDatabase(dir)).rejects.toThrow(/could not be opened .*restore a backup \(npm run restore -- --from <backup>/);
    expect(await isInitialised(dir)).toBe(true); // not mistaken for an unfinished initdb and moved aside
    expect((await readdir(path.dirname(dir))).sort()).toEqual(["db"]); // and its lock released
  });
});
