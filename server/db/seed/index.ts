import { asc, eq, inArray, sql } from "drizzle-orm";
import type { DemoMedia } from "../../demo-media/demo-media.types.js";
import { inProcessBus } from "../../events/bus.js";
import { type CatalogueWriter, type CatalogueWriteService, catalogueWriteService } from "../../modules/catalogue-write/service.js";
import { chinaDay } from "../../lib/china-day.js";
import { addDailyCount } from "../../modules/dashboard/daily-counts-repo.js";
import { bulkInsert } from "../bulk.js";
import { appSettings, categories, items, playEvents, sourceSites } from "../schema/index.js";
import { selectRows } from "../sql.js";
import { silentLogger, type AppDatabase, type DatabaseHandle, type DbLogger } from "../types.js";
import { CATEGORIES, PARENT_CATEGORIES, seoFor } from "./categories.js";
import { generateMix, generateSingle, type SeedContext, type SeedMedia } from "./generate.js";
import { generatePlay, type PlayTarget } from "./plays.js";

export { ensureAdminAccount } from "./admin.js";

export interface SeedOptions {
  media: SeedMedia;
  /**
   * The app's catalogue write service (its events keep the app's caches true); default one of
   * its own, for a database no app serves yet.
   */
  writes?: CatalogueWriteService;
  /** Number of mixes (套曲/串烧). Default 240. */
  suites?: number;
  /** Number of singles. Default: half the suites. */
  singles?: number;
  /** Number of play events over the last 100 days. Default 30000. */
  plays?: number;
  logger?: DbLogger;
  now?: Date;
}

export interface SeedResult {
  added: { mixes: number; singles: number; plays: number };
  totals: { mixes: number; singles: number; plays: number };
  ms: number;
}

/**
 * Where the demo seed stands, in app_settings under this key. Every chunk of rows is inserted in
 * the same transaction that advances this counter, with the row locked FOR UPDATE: a rerun adds
 * nothing, an interrupted run resumes where it stopped, a larger `suites` adds only the missing
 * rows, and two instances seeding at once take turns instead of duplicating.
 */
export const SEED_KEY = "demo_catalogue";
interface Progress {
  base: boolean;
  mixes: number;
  singles: number;
  plays: number;
}
const EMPTY: Progress = { base: false, mixes: 0, singles: 0, plays: 0 };

const ITEM_CHUNK = 2_000;
const PLAY_CHUNK = 25_000;

export async function seedDemoCatalogue(handle: DatabaseHandle, options: SeedOptions): Promise<SeedResult> {
  const { db } = handle;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? new Date();
  const target = {
    mixes: options.suites ?? 240,
    singles: options.singles ?? Math.ceil((options.suites ?? 240) / 2),
    plays: options.plays ?? 30_000,
  };
  const started = Date.now();
  const writes = options.writes ?? catalogueWriteService(db, inProcessBus());
  await db.insert(appSettings).values({ key: SEED_KEY, value: EMPTY }).onConflictDoNothing();

  await step(writes, (p) => !p.base, async (w, tx, p) => {
    await seedReferenceData(w, tx, options.media);
    return { ...p, base: true };
  });

  const ctx: SeedContext = { media: options.media, categoryIds: await categoryIds(db), now };
  const added = {
    mixes: await seedItems(writes, "mixes", target.mixes, ctx, logger),
    singles: await seedItems(writes, "singles", target.singles, ctx, logger),
    plays: await seedPlays(db, writes, target.plays, now, logger),
  };

  if (added.mixes + added.singles + added.plays > 0) {
    // Fresh statistics for the planner, and (PGlite has no autovacuum) a visibility map so the
    // chart aggregation can use index-only scans.
    const t1 = Date.now();
    await db.execute(sql`vacuum analyze ${items}, ${playEvents}`);
    logger.info({ ms: Date.now() - t1 }, "vacuum analyze after seeding");
  }
  const progress = await readProgress(db);
  const result = { added, totals: { mixes: progress.mixes, singles: progress.singles, plays: progress.plays }, ms: Date.now() - started };
  logger.info(result, "demo catalogue ready");
  return result;
}

type Tx = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

async function seedItems(writes: CatalogueWriteService, key: "mixes" | "singles", target: number, ctx: SeedContext, logger: DbLogger) {
  const generate = key === "mixes" ? generateMix : generateSingle;
  const t0 = Date.now();
  const added = await fill(writes, key, target, ITEM_CHUNK, async (w, tx, from, to) => {
    // The trigram GIN index dominates item inserts. A larger pending list merges new entries in
    // bigger sorted batches (about a quarter faster for large seeds); the closing VACUUM flushes it.
    await tx.execute(sql`set local gin_pending_list_limit = '64MB'`);
    const rows = [];
    for (let i = from; i < to; i++) rows.push(generate(i, ctx));
    // Through the write service: the same derived columns (search text, track count) as any item.
    await w.createItems(rows, { onConflictDoNothing: true });
  });
  if (added > 0) logger.info({ [key]: added, ms: Date.now() - t0 }, `seeded demo ${key}`);
  return added;
}

async function seedPlays(db: AppDatabase, writes: CatalogueWriteService, target: number, now: Date, logger: DbLogger) {
  // Plays need items to point at: with an empty catalogue there is nothing to count yet.
  const anyItem = await db.select({ id: items.id }).from(items).where(eq(items.status, "normal")).limit(1);
  if (anyItem.length === 0) return 0;
  const t0 = Date.now();
  // Half the cost of inserting play events is the per-row foreign-key trigger. The rows point at
  // ids just read from `items`, so a superuser session (PGlite always; PostgreSQL when the role is
  // one) skips the triggers for these transactions and removes any orphan afterwards instead.
  // Raw: a catalog table (pg_roles), not the schema's.
  const [{ superuser }] = await selectRows(db, { superuser: sql<boolean>`rolsuper` }, (list) => sql`select ${list} from pg_roles where rolname = current_user`);
  let targets: PlayTarget[] | undefined;
  const added = await fill(writes, "plays", target, PLAY_CHUNK, async (_w, tx, from, to) => {
    if (superuser) await tx.execute(sql`set local session_replication_role = replica`);
    const all = (targets ??= await playTargets(tx));
    const rows = [];
    for (let j = from; j < to; j++) rows.push(generatePlay(j, all, now));
    const inserted = await bulkInsert(tx, playEvents, rows, { onConflictDoNothing: true, returning: { playedAt: playEvents.playedAt } });
    // The dashboard's play history (ADR 0059) counts what was inserted, in the same transaction.
    const perDay = new Map<string, number>();
    for (const { playedAt } of inserted) {
      const day = chinaDay(new Date(playedAt));
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    for (const [day, n] of perDay) await addDailyCount(tx, day, "play", n);
  });
  if (added > 0 && superuser) {
    // An item deleted while we were seeding would have left plays behind without the trigger.
    await db.execute(sql`delete from ${playEvents} p where not exists (select 1 from ${items} i where i.id = p.item_id)`);
  }
  if (added > 0) logger.info({ plays: added, ms: Date.now() - t0 }, "seeded demo play events");
  return added;
}

/** Runs `fn` in a transaction holding the progress row lock, if `needed` still says so. */
async function step(
  writes: CatalogueWriteService,
  needed: (p: Progress) => boolean,
  fn: (w: CatalogueWriter, tx: Tx, p: Progress) => Promise<Progress | null>,
): Promise<boolean> {
  return writes.transaction(async (w, tx) => {
    const [row] = await tx.select().from(appSettings).where(eq(appSettings.key, SEED_KEY)).for("update");
    const p = { ...EMPTY, ...(row.value as Partial<Progress>) };
    if (!needed(p)) return false;
    const next = await fn(w, tx, p);
    if (!next) return false;
    await tx.update(appSettings).set({ value: next, updatedAt: new Date() }).where(eq(appSettings.key, SEED_KEY));
    return true;
  });
}

/** Adds rows [done, target) of one kind, chunk by chunk, each chunk with its progress update. */
async function fill(
  writes: CatalogueWriteService,
  key: "mixes" | "singles" | "plays",
  target: number,
  chunk: number,
  insert: (w: CatalogueWriter, tx: Tx, from: number, to: number) => Promise<void>,
): Promise<number> {
  let added = 0;
  for (;;) {
    let advanced = 0;
    const more = await step(writes, (p) => p[key] < target, async (w, tx, p) => {
      const to = Math.min(target, p[key] + chunk);
      await insert(w, tx, p[key], to);
      advanced = to - p[key];
      return { ...p, [key]: to };
    });
    if (!more) return added;
    added += advanced;
  }
}

async function readProgress(db: AppDatabase): Promise<Progress> {
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, SEED_KEY));
  return { ...EMPTY, ...(row?.value as Partial<Progress>) };
}

/** Categories (with menu parents), source-site logos and the two home-page blocks. */
async function seedReferenceData(w: CatalogueWriter, tx: Tx, media: DemoMedia): Promise<void> {
  const parents = await w.createCategories(
    PARENT_CATEGORIES.map((c, i) => ({ name: c.name, diyname: c.diyname, modelId: c.modelId, sort: i, ...seoFor(c) })),
    { onConflictDoNothing: true },
  );
  const parentIds = new Map(parents.map((p) => [p.diyname, p.id]));
  await w.createCategories(
    CATEGORIES.map((c, i) => ({
      name: c.name,
      diyname: c.diyname,
      modelId: c.modelId,
      parentId: c.parent ? (parentIds.get(c.parent) ?? null) : null,
      sort: i,
      ...seoFor(c),
    })),
    { onConflictDoNothing: true },
  );

  const sites = await tx.select().from(sourceSites).orderBy(asc(sourceSites.sort));
  for (const site of sites) {
    const logo = media.logos[site.code];
    if (logo && !site.logo) await w.updateSourceSite(site.code, { logo });
  }

  const focus = await w.createBlock({ name: "首页轮播", position: "indexfocus", sort: 1 });
  const links = ["/sort/zhongwen", "/sort/manyao", "/sort/club", "/sort/zhongwenremix", "/sort/edm", "/sort/digao"];
  const bannerNames = ["全中文串烧精选", "慢摇串烧每日更新", "Club现场", "中文Remix热歌", "E.D.M电音", "迪高串烧"];
  await w.createBlockItems(
    media.banners.map((image, i) => ({ blockId: focus, image, url: links[i % links.length], name: bannerNames[i % bannerNames.length], sort: i })),
  );
  const partners = await w.createBlock({ name: "合作伙伴", position: "indexweb", sort: 2 });
  await w.createBlockItems(
    sites.map((s, i) => ({ blockId: partners, name: s.name, url: s.homepage, image: media.logos[s.code] ?? "", sort: i })),
  );
  // A switched-off block, so "only enabled blocks are shown" is visible in the demo data.
  const old = await w.createBlock({ name: "旧版轮播(已停用)", position: "indexfocus", status: false, sort: 9 });
  await w.createBlockItems([{ blockId: old, name: "旧活动", url: "/", image: media.banners[0] ?? "", sort: 0 }]);
}

async function categoryIds(db: AppDatabase): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: categories.id, diyname: categories.diyname })
    .from(categories)
    .where(inArray(categories.diyname, CATEGORIES.map((c) => c.diyname)));
  return new Map(rows.map((r) => [r.diyname, r.id]));
}

/** Every visible item, in id order (so runs on fresh databases are reproducible). */
async function playTargets(tx: Tx): Promise<PlayTarget[]> {
  return tx.select({ id: items.id, durationSec: items.durationSec }).from(items).where(eq(items.status, "normal")).orderBy(asc(items.id));
}
