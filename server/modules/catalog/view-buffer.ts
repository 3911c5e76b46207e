import { setImmediate as nextTurn } from "node:timers/promises";
import type { AppDatabase } from "../../db/open.js";
import type { CatalogueWriteService } from "../catalogue-write/service.js";
import { suiteRepo } from "./suite-repo.js";
import { viewLedger } from "./view-ledger.js";

/** Says whether a view is the visitor's first of the item that day (in process, or in Redis). */
export interface ViewDedupe {
  firstToday(itemId: number, visitorId: string, day: string): boolean | Promise<boolean>;
}

/**
 * Group commit (ADR 0053): a counted view is written within this many ms, together with every
 * view counted meanwhile, in one statement; its beacon is answered once that is committed. A
 * batch that arrives while one is being written goes in the next, right after it.
 */
export const VIEW_FLUSH_MS = 2;
/** A batch this large is written at once (on PGlite a write holds the only thread: kept short). */
const MAX_PENDING = 100;
/** A failed batch (its beacons answered with the error) is tried again after this long. */
const VIEW_RETRY_MS = 1_000;
/** Written views reach items.view_count (the lists and the "hot" order) within this time. */
export const VIEW_FOLD_MS = 5 * 60_000;
/** Items per fold statement (~0.3-0.5 ms each on PGlite), for the same reason as MAX_PENDING. */
const FOLD_CHUNK = 10;

/** One view of an item by a visitor on a (China) day. */
export interface View {
  itemId: number;
  visitorId: string;
  day: string;
}

export interface ViewBuffer {
  /**
   * Counts the view if it is the visitor's first of the item that day: resolves true once it is
   * committed to the database, false when it did not count; rejects when its batch failed.
   */
  add(view: View): Promise<boolean>;
  /** Views of the item counted but not yet written (shown on top of the stored count). */
  pendingFor(itemId: number): number;
  /** Views of the item counted in this process so far, written or not (never goes down). */
  addedFor(itemId: number): number;
  /** Writes what is waiting; resolves when written. */
  flush(): Promise<void>;
  /** Adds the written views to items.view_count (a timer does it VIEW_FOLD_MS after a view). */
  fold(): Promise<void>;
}

/**
 * Views are deduped in memory or Redis (view-ledger.ts), counted per item, and the counts of a
 * few ms written together into the narrow item_view_deltas table (group commit: each view's
 * beacon waits for its batch); a failed batch is kept for the next try. A fold moves the
 * deltas into items.view_count in small chunks, through the catalogue write service (see the
 * schema for why the two steps). One buffer per app, built by createServices.
 */
export function viewBuffer(
  db: AppDatabase,
  writes: Pick<CatalogueWriteService, "foldViewDeltas">,
  ledger: ViewDedupe = viewLedger(),
): ViewBuffer {
  const repo = suiteRepo(db);
  /** Counted views waiting for the next batch, by `${itemId}|${day}` (the day goes to the history). */
  let pending = new Map<string, number>();
  let pendingTotal = 0;
  /** The beacons waiting on the pending batch's commit. */
  let waiters: { resolve(counted: boolean): void; reject(err: unknown): void }[] = [];
  /** Counted and not yet written, including a batch being written. */
  const unwritten = new Map<number, number>();
  const added = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let foldTimer: NodeJS.Timeout | undefined;
  let folding: Promise<void> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const bump = <K>(map: Map<K, number>, id: K, by: number) => {
    const n = (map.get(id) ?? 0) + by;
    if (n > 0) map.set(id, n);
    else map.delete(id);
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    // A failed batch must not leave the chain rejected: every later flush would fail unwritten.
    writing = writing.catch(() => undefined).then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      const answered = waiters;
      pending = new Map();
      pendingTotal = 0;
      waiters = [];
      try {
        const rows = [...batch].map(([key, views]) => {
          const [id, day] = key.split("|") as [string, string];
          return { itemId: Number(id), day, views };
        });
        await repo.addViewCounts(rows);
        for (const { itemId, views } of rows) bump(unwritten, itemId, -views);
        for (const w of answered) w.resolve(true);
      } catch (err) {
        // Kept and tried again (the ledger already knows these visitors); their beacons get the error.
        for (const [key, n] of batch) bump(pending, key, n);
        pendingTotal = [...pending.values()].reduce((a, b) => a + b, 0);
        for (const w of answered) w.reject(err);
        schedule(VIEW_RETRY_MS);
        throw err;
      }
    });
    return writing;
  };
  const schedule = (ms = VIEW_FLUSH_MS) => {
    if (timer) return;
    timer = setTimeout(() => void flush().catch(() => undefined), ms);
    timer.unref();
  };

  const fold = (): Promise<void> => {
    folding ??= (async () => {
      try {
        while ((await writes.foldViewDeltas(FOLD_CHUNK)) === FOLD_CHUNK) await nextTurn();
      } finally {
        folding = undefined;
      }
    })();
    return folding;
  };
  const scheduleFold = () => {
    if (foldTimer) return;
    foldTimer = setTimeout(() => {
      foldTimer = undefined;
      void fold().catch(() => scheduleFold());
    }, VIEW_FOLD_MS);
    foldTimer.unref();
  };

  return {
    pendingFor: (itemId) => unwritten.get(itemId) ?? 0,
    addedFor: (itemId) => added.get(itemId) ?? 0,
    add({ itemId, visitorId, day }) {
      const first = ledger.firstToday(itemId, visitorId, day);
      if (typeof first !== "boolean") return first.then((yes) => (yes ? count(itemId, day) : false));
      return first ? count(itemId, day) : Promise.resolve(false);
    },
    flush,
    fold,
  };

  function count(itemId: number, day: string): Promise<boolean> {
    bump(pending, `${itemId}|${day}`, 1);
    bump(unwritten, itemId, 1);
    bump(added, itemId, 1);
    const committed = new Promise<boolean>((resolve, reject) => waiters.push({ resolve, reject }));
    // A caller that does not wait (a test) must not make a failed batch an unhandled rejection.
    committed.catch(() => undefined);
    if (++pendingTotal >= MAX_PENDING) void flush().catch(() => undefined);
    else schedule();
    scheduleFold();
    return committed;
  }
}
