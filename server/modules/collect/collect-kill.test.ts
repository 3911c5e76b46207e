/**
 * The "done when": a collection job killed (kill -9) mid-run resumes on restart and
 * finishes with no duplicate and no lost page. A runner in a child process walks djuu's real
 * plan against a local djuu whose pages answer slowly; it is killed with SIGKILL after some
 * pages; a second process takes the job once the lease ran out and finishes it. On both engines.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPgliteDatabase, openPostgresDatabase } from "../../db/open.js";
import { queryRows } from "../../db/sql.js";
import type { CollectUnit } from "../../db/schema/index.js";
import type { DatabaseEngine, DatabaseHandle } from "../../db/types.js";
import { startFixtureSite, type FixtureSite } from "../../testing/fixture-site.js";
import { createEmptyPostgresDatabase, dropPostgresDatabase, pgliteTemplate, testAdminUrl, testEngines, withDatabase } from "../../testing/test-db.js";
import { expectedPages, expectedUrls, serveCollectDjuu } from "./collect.fixtures.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const CHILD = path.join(import.meta.dirname, "testing/collect-child.ts");
const LEASE_MS = 1_500;
const KILL_AFTER_PAGES = 12;

interface PageLine {
  unitIndex: number;
  page: number;
}

interface Child {
  pages: PageLine[];
  /** Resolves at the first line matching. */
  waitFor(test: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): void;
  output(): string;
}

function startChild(env: Record<string, string>): Child {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const pages: PageLine[] = [];
  const lines: Record<string, unknown>[] = [];
  const waiters: { test: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }[] = [];
  let buffer = "";
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      if (line.page) pages.push(line.page as PageLine);
      for (const waiter of waiters.filter((w) => w.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return {
    pages,
    waitFor: (test) => {
      const seen = lines.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ test, resolve });
        void exited.then(({ code, signal }) => reject(new Error(`child exited (${code ?? signal}) before the line:\n${errors}`)));
      });
    },
    exited,
    kill: () => child.kill("SIGKILL"),
    output: () => errors,
  };
}

const key = (p: PageLine) => `${p.unitIndex}:${p.page}`;

describe.each(testEngines())("a collect job killed with SIGKILL on %s", (engine: DatabaseEngine) => {
  let site: FixtureSite;
  let dbEnv: Record<string, string>;
  let open: () => Promise<DatabaseHandle>;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    site = serveCollectDjuu(await startFixtureSite(), { latencyMs: 60, failures: false });
    if (engine === "pglite") {
      const dataDir = await mkdtemp(path.join(tmpdir(), "djcollect-"));
      const dir = path.join(dataDir, "db");
      // A migrated data dir from the template (initdb in each child would take seconds).
      await (await openPgliteDatabase(dir, { loadDataDir: await pgliteTemplate("migrated") })).close();
      dbEnv = { COLLECT_DATA_DIR: dataDir };
      open = () => openPgliteDatabase(dir);
      cleanup = () => rm(dataDir, { recursive: true, force: true });
    } else {
      const name = await createEmptyPostgresDatabase();
      const url = withDatabase(testAdminUrl(), name);
      await (await openPostgresDatabase(url, { poolMax: 1 })).close();
      dbEnv = { COLLECT_DATABASE_URL: url };
      open = () => openPostgresDatabase(url, { poolMax: 2 });
      cleanup = () => dropPostgresDatabase(name);
    }
  });
  afterAll(async () => {
    await site?.close();
    await cleanup?.();
  });

  it("resumes in a new process and finishes: every page once, every item once, counters equal the rows", { timeout: 120_000 }, async () => {
    const env = { ...dbEnv, COLLECT_SITE_URL: site.url, COLLECT_SITE_HOST: site.host, COLLECT_LEASE_MS: String(LEASE_MS) };
    const first = startChild({ ...env, COLLECT_QUEUE: "1" });
    await first.waitFor(() => first.pages.length >= KILL_AFTER_PAGES);
    first.kill();
    expect((await first.exited).signal).toBe("SIGKILL");
    const killedAt = Date.now();
    const pagesBeforeKill = first.pages.map(key);

    const second = startChild(env);
    const done = await second.waitFor((line) => "done" in line);
    expect(await second.exited).toEqual({ code: 0, signal: null });
    // It waited for the dead runner's lease (renewed at its last page) before taking the job.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(LEASE_MS - 500);
    expect(done.attempts).toBe(2);

    const database = await open();
    try {
      const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(database.db, query);
      const [job] = await rows<{ id: number; state: string; plan: CollectUnit[]; pages_done: number; items_found: number; items_new: number; errors: number; attempts: number }>(
        sql`select id, state, plan, pages_done, items_found, items_new, errors, attempts from collect_jobs`,
      );
      expect(job).toMatchObject({ id: done.done, state: "done", errors: 0, attempts: 2 });
      const plan = job!.plan;
      const expected = expectedPages(plan);
      expect(plan.length).toBeGreaterThan(20); // djuu's real plan: 7 charts and its categories
      expect(pagesBeforeKill.length).toBeGreaterThanOrEqual(KILL_AFTER_PAGES);
      expect(pagesBeforeKill.length).toBeLessThan(expected.length);

      // The page log: every (unit, page) of the plan exactly once (its primary key forbids twice), none missing.
      const log = await rows<{ unit_index: number; page: number; items: number; new_items: number }>(
        sql`select unit_index, page, items, new_items from collect_job_pages where job_id = ${job!.id} order by unit_index, page`,
      );
      expect(log.map((p) => `${p.unit_index}:${p.page}`)).toEqual(expected.map(key));
      // The second process stored none of the pages the first one had stored.
      const afterRestart = second.pages.map(key);
      expect(afterRestart.filter((k) => pagesBeforeKill.includes(k))).toEqual([]);
      expect([...pagesBeforeKill, ...afterRestart].sort()).toEqual(expected.map(key).sort());

      // Every item once, and the counters are the sums of the rows.
      const items = await rows<{ source_url: string }>(sql`select source_url from collected_items order by source_url`);
      expect(items.map((r) => r.source_url)).toEqual([...expectedUrls(site.url, plan)].sort());
      expect(job).toMatchObject({
        pages_done: log.length,
        items_found: log.reduce((n, p) => n + p.items, 0),
        items_new: items.length,
      });
      expect(log.reduce((n, p) => n + p.new_items, 0)).toBe(items.length);

      // The site saw each category page at most twice (only the page in flight at the kill again),
      // and all requests together at most one more than the pages.
      const perPage = new Map<string, number>();
      for (const hit of site.hits) perPage.set(hit.url, (perPage.get(hit.url) ?? 0) + 1);
      const categoryCounts = [...perPage].filter(([url]) => url.startsWith("/djlist/")).map(([, n]) => n);
      expect(Math.max(...categoryCounts)).toBeLessThanOrEqual(2);
      expect(site.hits.length).toBeGreaterThanOrEqual(expected.length);
      expect(site.hits.length).toBeLessThanOrEqual(expected.length + 1);
    } finally {
      await database.close();
    }
  });
});
