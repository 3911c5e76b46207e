/**
 * The durable collector (issue 11, "Collection"; ADR 0023) on both engines, against a local djuu
 * (real adapter, real fetcher, real HTTP): plans walked page by page, items deduplicated by
 * source address, charts replaced, failing pages logged, leases taken over and fenced.
 */
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../db/sql.js";
import type { CollectUnit } from "../../db/schema/index.js";
import type { DatabaseHandle } from "../../db/types.js";
import { inProcessBus } from "../../events/bus.js";
import { startFixtureSite, withLatency, html, type FixtureSite } from "../../testing/fixture-site.js";
import { captureLogger, createTestDatabase, testEngines } from "../../testing/test-db.js";
import { catalogueWriteService } from "../catalogue-write/service.js";
import { staticSourceDirectory } from "../sources/directory.js";
import { healthBoard } from "../sources/health.js";
import { BLOCKED_CID, CHANGED_CID, CHARTS, HANGING_CID, category, chart, djuuEntry, expectedPages, expectedUrls, serveCollectDjuu } from "./collect.fixtures.js";
import { LostLease } from "./repo.js";
import { createCollector, type CollectorOptions } from "./service.js";

const PLAN: CollectUnit[] = [chart("week", "mix"), chart("week", "single"), category("2"), category("4"), category("10")];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testEngines())("collector on %s", (engine) => {
  let database: DatabaseHandle;
  let site: FixtureSite;
  let djuu: ReturnType<typeof djuuEntry>;
  const closers: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    site = await startFixtureSite();
    site.route("/djlist/77_1.html", withLatency(250, html(`<ul class="music_list"><li><a href="/play/7701.html" title="慢 - 慢歌">x</a></li></ul>`)));
    serveCollectDjuu(site);
    djuu = djuuEntry(site, { timeoutMs: 400 });
  });
  afterAll(async () => {
    djuu.close();
    await site.close();
    await database.close();
  });
  beforeEach(async () => {
    site.hits.length = 0;
    await database.db.execute(sql`delete from collect_jobs`);
    await database.db.execute(sql`delete from collected_items`);
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  function collector(options: Partial<CollectorOptions> & { plan?: CollectUnit[] } = {}) {
    const made = createCollector({
      db: database.db,
      directory: staticSourceDirectory([djuu.entry]),
      logger: captureLogger(),
      intervalMs: 0,
      leaseMs: 5_000,
      planFor: () => options.plan ?? PLAN,
      ...options,
    });
    closers.push(() => made.stop());
    return made;
  }

  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(database.db, query);
  const pageLog = (jobId: number) =>
    rows<{ unit_index: number; page: number; items: number; new_items: number; error: string | null }>(
      sql`select unit_index, page, items, new_items, error from collect_job_pages where job_id = ${jobId} order by unit_index, page`,
    );

  /** The job's counters are the sums of its page log. */
  async function expectCountersMatchLog(jobId: number) {
    const [job] = await rows<{ pages_done: number; items_found: number; items_new: number; errors: number }>(
      sql`select pages_done, items_found, items_new, errors from collect_jobs where id = ${jobId}`,
    );
    const log = await pageLog(jobId);
    expect(job).toEqual({
      pages_done: log.length,
      items_found: log.reduce((n, p) => n + p.items, 0),
      items_new: log.reduce((n, p) => n + p.new_items, 0),
      errors: log.filter((p) => p.error !== null).length,
    });
  }

  it("walks the plan page by page: each item stored once, categories stop at their last page or maxPages", async () => {
    const c = collector();
    const [{ job: queued }] = await c.startNow({ source: "djuu" });
    const job = (await c.runner.runOnce())!;
    expect(job.id).toBe(queued!.id);
    expect(job).toMatchObject({ state: "done", unitIndex: PLAN.length, attempts: 1, lockedBy: null, errors: 0 });
    expect(job.finishedAt).toBeInstanceOf(Date);

    const log = await pageLog(job.id);
    expect(log.map((p) => ({ unitIndex: p.unit_index, page: p.page }))).toEqual(expectedPages(PLAN));
    // Category 2 has five pages: maxPages 3 stops the walk before page 4 is asked for.
    expect(site.hits.some((h) => h.path === "/djlist/2_4.html")).toBe(false);
    await expectCountersMatchLog(job.id);

    const stored = await rows<{ source_url: string }>(sql`select source_url from collected_items order by source_url`);
    const expected = [...expectedUrls(site.url, PLAN)].sort();
    expect(stored.map((r) => r.source_url)).toEqual(expected);
    expect(job.itemsNew).toBe(expected.length);
    expect(job.itemsFound).toBeGreaterThan(expected.length); // the shared items were found on every category

    const [mix] = await rows<Record<string, unknown>>(
      sql`select source_id, title, artist, cover, kind, duration_sec, size_bytes::int as size_bytes, status, chart_positions, last_seen_at, source_category, raw->>'hits_num' as hits
          from collected_items where source_url = ${`${site.url}/play/501.html`}`,
    );
    expect(mix).toMatchObject({ source_id: "501", kind: "mix", duration_sec: 3720, size_bytes: 3720 * 8000, status: 0, chart_positions: { "week:mix": 1 }, source_category: null, hits: "10" });
    expect(mix!.last_seen_at).not.toBeNull();
    const [fromCategory] = await rows<Record<string, unknown>>(
      sql`select source_id, title, artist, source_category, source_category_name from collected_items where source_url = ${`${site.url}/play/4101.html`}`,
    );
    expect(fromCategory).toEqual({ source_id: "4101", title: "舞曲4101", artist: "DJ4号", source_category: "4", source_category_name: "分类4" });

    const chartRows = await rows<{ kind: string; period: string; rank: number; source_id: string }>(
      sql`select e.kind, e.period, e.rank, c.source_id from source_chart_entries e join collected_items c on c.id = e.collected_item_id
          where e.site = 'djuu' order by e.kind, e.rank`,
    );
    expect(chartRows).toEqual([
      { kind: "mix", period: "week", rank: 1, source_id: "501" },
      { kind: "single", period: "week", rank: 2, source_id: "502" },
      { kind: "single", period: "week", rank: 3, source_id: "503" },
    ]);
  });

  it("a second job finds nothing new, keeps processed rows as they are, and replaces a chart that changed", async () => {
    const c = collector();
    await c.startNow({ source: "djuu" });
    await c.runner.runOnce();
    await database.db.execute(sql`update collected_items set status = 1 where source_id = '502'`);
    const before = CHARTS["1"]!;
    CHARTS["1"] = [{ id: 701, title: "DJ新人-全新串烧", duration: 3000 }, ...before.slice(1)];
    try {
      await c.startNow({ source: "djuu" });
      const second = (await c.runner.runOnce())!;
      expect(second).toMatchObject({ state: "done", itemsNew: 1 });
      await expectCountersMatchLog(second.id);
    } finally {
      CHARTS["1"] = before;
    }
    const charted = await rows<{ source_id: string; chart_positions: Record<string, number>; status: number }>(
      sql`select source_id, chart_positions, status from collected_items where source_id in ('501', '502', '701') order by source_id`,
    );
    expect(charted).toEqual([
      { source_id: "501", chart_positions: {}, status: 0 },
      { source_id: "502", chart_positions: { "week:single": 2 }, status: 1 },
      { source_id: "701", chart_positions: { "week:mix": 1 }, status: 0 },
    ]);
    const [{ n }] = (await rows<{ n: number }>(sql`select count(*)::int as n from source_chart_entries where site = 'djuu' and kind = 'mix'`)) as [{ n: number }];
    expect(n).toBe(1);
  });

  it("a failing page (403, changed layout, timeout) is logged and the job goes on", async () => {
    const plan = [category(BLOCKED_CID), category("4"), category(CHANGED_CID), category("10"), category(HANGING_CID), category("1")];
    const c = collector({ plan });
    await c.startNow({ source: "djuu" });
    const job = (await c.runner.runOnce())!;
    expect(job).toMatchObject({ state: "done", errors: 3 });
    expect(job.lastError).toMatch(/^timeout/u);
    const log = await pageLog(job.id);
    expect(log.map((p) => [p.unit_index, p.page, p.error?.split(":")[0] ?? null])).toEqual([
      [0, 1, "blocked"],
      [1, 1, null],
      [1, 2, null],
      [2, 1, "layout"],
      [3, 1, null],
      [3, 2, null],
      [4, 1, "timeout"],
      [5, 1, null],
    ]);
    await expectCountersMatchLog(job.id);
  });

  it("lists failing several in a row end the job as failed, without asking the rest", async () => {
    const c = collector({ plan: [category(BLOCKED_CID), category(CHANGED_CID), category(BLOCKED_CID), category("4")] });
    await c.startNow({ source: "djuu" });
    const job = (await c.runner.runOnce())!;
    expect(job).toMatchObject({ state: "failed", errors: 3, lockedBy: null });
    expect(job.lastError).toMatch(/^连续 3 个列表读取失败/u);
    expect(site.hits.some((h) => h.path.startsWith("/djlist/4_"))).toBe(false);
  });

  it("a source whose breaker is open is not asked: the job fails with the reason", async () => {
    const health = healthBoard({ failureThreshold: 2, coolDownMs: 60_000 });
    const tracked = health.track("djuu", "DJUU");
    tracked.failed(10, { kind: "timeout", message: "slow" });
    tracked.failed(10, { kind: "timeout", message: "slow" });
    const c = collector({ health });
    await c.startNow({ source: "djuu" });
    const job = (await c.runner.runOnce())!;
    expect(job).toMatchObject({ state: "failed", pagesDone: 0 });
    expect(job.lastError).toContain("熔断");
    expect(site.hits).toHaveLength(0);
  });

  it("a source switched off while its job runs (the directory is asked at each page) ends the job as failed", async () => {
    let enabled = true;
    const directory = { list: () => (enabled ? [djuu.entry] : []), get: (code: string) => (enabled && code === "djuu" ? djuu.entry : undefined) };
    const c = collector({ directory, onPage: () => (enabled = false) });
    await c.startNow({ source: "djuu" });
    const job = (await c.runner.runOnce())!;
    expect(job).toMatchObject({ state: "failed", pagesDone: 1, lastError: "来源 djuu 已停用或不存在" });
  });

  it("a job whose runner died is taken by another runner once the lease ran out, and goes on from its cursor", async () => {
    const c = collector({ leaseMs: 400 });
    const [{ job }] = await c.startNow({ source: "djuu" });
    // A runner takes the job, stores two pages, and dies (it never stores again nor gives the job back).
    const dead = await c.repo.claim("dead-runner", 400, ["djuu"]);
    expect(dead?.id).toBe(job!.id);
    const first = await c.repo.storePage({ job: dead!, runnerId: "dead-runner", leaseMs: 400, unitIndex: 0, page: 1, outcome: await djuu.entry.adapter.listChart({ period: "week", kind: "mix" }) });
    await c.repo.storePage({ job: dead!, runnerId: "dead-runner", leaseMs: 400, unitIndex: first.unitIndex, page: first.nextPage, outcome: { items: [], hasMore: false, error: "timeout: slow" } });

    const other = collector({ leaseMs: 400 });
    expect(await other.runner.runOnce()).toBeUndefined(); // still held
    await wait(450);
    const resumed = (await other.runner.runOnce())!;
    expect(resumed).toMatchObject({ id: job!.id, state: "done", attempts: 2 });
    const log = await pageLog(job!.id);
    expect(log.map((p) => ({ unitIndex: p.unit_index, page: p.page }))).toEqual(expectedPages(PLAN));
    await expectCountersMatchLog(job!.id);
    // The resumed runner never asked for the two lists already stored.
    expect(site.hits.filter((h) => h.path === "/app/v1/music/playRankings")).toHaveLength(1);
  });

  it("fencing: a runner that lost its lease cannot store a page, even at the job's current cursor", async () => {
    const plan = [category("77"), category("4")];
    const slowRunner = collector({ plan, leaseMs: 100, runnerId: "slow" });
    const fastRunner = collector({ plan, leaseMs: 5_000, runnerId: "fast" });
    const [{ job }] = await slowRunner.startNow({ source: "djuu" });
    // The slow runner's page takes 250 ms, longer than its 100 ms lease: the other runner takes the job meanwhile.
    const slow = slowRunner.runner.runOnce();
    await wait(150);
    const fast = (await fastRunner.runner.runOnce())!;
    await slow;
    expect(fast).toMatchObject({ id: job!.id, state: "done", attempts: 2 });
    const log = await pageLog(job!.id);
    expect(log.map((p) => [p.unit_index, p.page])).toEqual([
      [0, 1],
      [1, 1],
      [1, 2],
    ]);
    await expectCountersMatchLog(job!.id);

    // Directly: the lease is someone else's, so even the right cursor is refused and nothing is stored.
    await slowRunner.startNow({ source: "djuu" });
    const held = (await fastRunner.repo.claim("fast", 5_000, ["djuu"]))!;
    await expect(
      slowRunner.repo.storePage({ job: held, runnerId: "slow", leaseMs: 200, unitIndex: 0, page: 1, outcome: { items: [], hasMore: false } }),
    ).rejects.toBeInstanceOf(LostLease);
    expect(await pageLog(held.id)).toEqual([]);
  });

  it("queueing is idempotent: one open job per source, and the schedule waits for the source's interval", async () => {
    const c = collector();
    const [a, b] = await Promise.all([c.startNow({ source: "djuu" }), c.startNow({ source: "djuu" })]);
    expect([a[0]!.created, b[0]!.created].sort()).toEqual([false, true]);
    expect(a[0]!.job.id).toBe(b[0]!.job.id);
    // The schedule (djuu: every 360 minutes by migration 0007) queues nothing while a job is open.
    expect(await c.tick()).toEqual([]);
    await c.runner.runOnce();
    expect(await c.tick()).toEqual([]); // the last job was created just now
    await database.db.execute(sql`update collect_jobs set created_at = now() - interval '361 minutes'`);
    const [scheduled] = await Promise.all([c.tick(), c.tick()]).then(([x, y]) => [...x, ...y]);
    expect(scheduled).toMatchObject({ source: "djuu", trigger: "schedule", state: "queued" });
    const [{ n }] = (await rows<{ n: number }>(sql`select count(*)::int as n from collect_jobs where state = 'queued'`)) as [{ n: number }];
    expect(n).toBe(1);
    const writes = catalogueWriteService(database.db, inProcessBus());
    await writes.updateSourceSite("djuu", { collectIntervalMinutes: 0 });
    try {
      await database.db.execute(sql`delete from collect_jobs`);
      expect(await c.tick()).toEqual([]);
    } finally {
      await writes.updateSourceSite("djuu", { collectIntervalMinutes: 360 });
    }
  });

  it("in the background (main.ts): the schedule queues the source's job and the runner walks it", async () => {
    const c = collector({ intervalMs: 1_000 });
    c.startBackground();
    let job;
    for (let i = 0; i < 100 && job?.state !== "done"; i++) {
      await wait(50);
      [job] = await c.jobs();
    }
    expect(job).toMatchObject({ source: "djuu", trigger: "schedule", state: "done", attempts: 1 });
    await c.stop();
  });

  it("only the leader lease's holder queues scheduled jobs (ADR 0040); every instance's runner may walk them", async () => {
    const follower = collector({ intervalMs: 1_000, leader: async () => false });
    follower.startBackground();
    await wait(1_500);
    expect(await follower.jobs()).toEqual([]);
    const leader = collector({ intervalMs: 1_000, leader: async () => true });
    leader.startBackground();
    let jobs: Awaited<ReturnType<typeof leader.jobs>> = [];
    for (let i = 0; i < 100 && jobs[0]?.state !== "done"; i++) {
      await wait(50);
      jobs = await leader.jobs();
    }
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ source: "djuu", trigger: "schedule", state: "done" });
    await Promise.all([follower.stop(), leader.stop()]);
  });

  it("a runner takes only jobs of the sources its instance has", async () => {
    const c = collector();
    const [{ job }] = await c.startNow({ source: "djuu" });
    const without = collector({ directory: staticSourceDirectory([]) });
    expect(await without.runner.runOnce()).toBeUndefined();
    expect((await c.repo.getJob(job!.id))?.state).toBe("queued");
    expect(await c.runner.runOnce()).toMatchObject({ id: job!.id, state: "done" });
  });

  it("a cancelled job stops at its next page; a stopping runner gives its job back for the next one", async () => {
    const c = collector();
    const [{ job }] = await c.startNow({ source: "djuu" });
    await c.cancel(job!.id);
    expect(await c.runner.runOnce()).toBeUndefined();
    expect((await c.repo.getJob(job!.id))?.state).toBe("cancelled");

    const [{ job: second }] = await c.startNow({ source: "djuu" });
    c.runner.start();
    await wait(30);
    await c.stop();
    const released = (await c.repo.getJob(second!.id))!;
    if (released.state === "running") {
      expect(released.lockedUntil!.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
      const next = collector({ runnerId: "next" });
      expect(await next.runner.runOnce()).toMatchObject({ id: second!.id, state: "done", attempts: 2 });
    } else {
      expect(released.state).toBe("done");
    }
    await expectCountersMatchLog(second!.id);
  });
});
