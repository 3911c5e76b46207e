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
 * Counted views are written in batches this often, and when MAX_PENDING are waiting: small
 * batches, because on PGlite a write holds the only thread, so its length is what requests wait.
 */
export const VIEW_FLUSH_MS = 1_000;
const MAX_PENDING = 100;
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
  /** Counts the view if it is the visitor's first of the item that day (at once with the in-process ledger). */
  add(view: View): void | Promise<void>;
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
 * A page view used to be one write transaction per request. Views are now deduped in memory
 * (view-ledger.ts), counted per item, and the counts written together into the narrow
 * item_view_deltas table; a failed batch is kept for the next try. A fold moves the
 * deltas into items.view_count in small chunks, through the catalogue write service (see the
 * schema for why the two steps). One buffer per app, built by createServices.
 */
export function viewBuffer(
  db: AppDatabase,
  writes: Pick<CatalogueWriteService, "foldViewDeltas">,
  ledger: ViewDedupe = viewLedger(),
): ViewBuffer {
  const repo = suiteRepo(db);
  let pending = new Map<number, number>();
  let pendingTotal = 0;
  /** Counted and not yet written, including a batch being written. */
  const unwritten = new Map<number, number>();
  const added = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let foldTimer: NodeJS.Timeout | undefined;
  let folding: Promise<void> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const bump = (map: Map<number, number>, id: number, by: number) => {
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
      pending = new Map();
      pendingTotal = 0;
      try {
        await repo.addViewCounts([...batch]);
        for (const [id, n] of batch) bump(unwritten, id, -n);
      } catch (err) {
        for (const [id, n] of batch) bump(pending, id, n);
        pendingTotal = [...pending.values()].reduce((a, b) => a + b, 0);
        schedule();
        throw err;
      }
    });
    return writing;
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => void flush().catch(() => undefined), VIEW_FLUSH_MS);
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
      if (typeof first !== "boolean") return first.then((yes) => (yes ? count(itemId) : undefined));
      if (first) count(itemId);
    },
    flush,
    fold,
  };

  function count(itemId: number) {
    bump(pending, itemId, 1);
    bump(unwritten, itemId, 1);
    bump(added, itemId, 1);
    if (++pendingTotal >= MAX_PENDING) void flush().catch(() => undefined);
    else schedule();
    scheduleFold();
  }
}
