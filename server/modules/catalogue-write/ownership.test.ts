import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const OWNER = "server/modules/catalogue-write/";
/** The database layer's own tests exercise bulk inserts and start-up on raw tables. */
const EXEMPT = [/^server\/db\/[^/]+\.test\.ts$/];
const SCANNED = ["server", "web", "contracts", "e2e", "bench", "scripts"];
/**
 * A test may write behind the service's back on purpose, to show what is kept when nobody is
 * told (as an operator's hand-written SQL would be): such a line says so.
 */
const BYPASS_MARK = "behind the write service's back";

/** The catalogue tables (SQL names) and the Drizzle tables that stand for them. */
const TABLES = ["items", "categories", "blocks", "block_items", "source_sites"];
const DRIZZLE_TABLES = ["items", "categories", "blocks", "blockItems", "sourceSites"];

const table = `(?:${TABLES.join("|")})`;
const drizzle = `(?:${DRIZZLE_TABLES.join("|")})`;
/** Writes in raw SQL (`update items`, `insert into ${items}`, `truncate …, items`) and through Drizzle. */
const WRITES = [
  new RegExp(String.raw`\binsert\s+into\s+(?:\$\{\s*)?${table}\b`, "i"),
  new RegExp(String.raw`\bupdate\s+(?:only\s+)?(?:\$\{\s*)?${table}\b(?!\s*\()`, "i"),
  new RegExp(String.raw`\bdelete\s+from\s+(?:\$\{\s*)?${table}\b`, "i"),
  new RegExp(String.raw`\btruncate\b[^;\x60]*\b${table}\b`, "i"),
  new RegExp(String.raw`\.(?:insert|update|delete)\(\s*${drizzle}\s*\)`),
  new RegExp(String.raw`\bbulkInsert\([^,]+,\s*${drizzle}\b`),
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === "node_modules" || name === "migrations") return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(name) ? [full] : [];
  });
}

/** Every line outside the write service that writes a catalogue table. */
export function catalogueWritesOutsideOwner(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const rel = path.relative(ROOT, file).split(path.sep).join("/");
    if (rel.startsWith(OWNER) || EXEMPT.some((re) => re.test(rel))) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (rel.endsWith(".test.ts") && line.includes(BYPASS_MARK)) return;
        if (WRITES.some((re) => re.test(line))) found.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe("the catalogue write service owns its tables", () => {
  it("no code outside server/modules/catalogue-write writes items, categories, blocks, block items or source sites", () => {
    const files = SCANNED.flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(100);
    expect(catalogueWritesOutsideOwner(files)).toEqual([]);
  });

  it("recognises the shapes such writes take (so the check above can fail)", () => {
    const probe = (line: string) => WRITES.some((re) => re.test(line));
    for (const line of [
      "await db.insert(items).values(row)",
      "await tx.update(categories).set({ name })",
      "db.delete(blockItems).where(x)",
      "await bulkInsert(tx, items, rows)",
      "sql`update items set title = ${t}`",
      "sql`UPDATE ${items} SET status = 'hidden'`",
      "sql`insert into source_sites (code) values ('x')`",
      "sql`delete from blocks where id = 1`",
      "sql`truncate play_events, items cascade`",
    ]) {
      expect(probe(line), line).toBe(true);
    }
    for (const line of [
      "await db.insert(playEvents).values(row)",
      "sql`update item_view_deltas set views = 1`",
      "sql`select * from items`",
      "await bulkInsert(db, playEvents, rows)",
      "// the items are updated by the write service",
    ]) {
      expect(probe(line), line).toBe(false);
    }
  });
});
