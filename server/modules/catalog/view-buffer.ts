import { setImmediate as nextTurn } from "node:timers/promises";
import type { AppDatabase } from "../../db/open.js";
import { type PendingView, suiteRepo } from "./suite-repo.js";

/**
 * Views are written in batches this often, and when MAX_PENDING are waiting: small batches,
 * because on PGlite a write holds the only thread, so its length is what requests wait.
 */
export const VIEW_FLUSH_MS = 1_000;
const MAX_PENDING = 100;
/** Written views reach items.view_count (the lists and the "hot" order) within this time. */
export const VIEW_FOLD_MS = 60_000;
/** Items per fold statement, for the same reason as MAX_PENDING. */
const FOLD_CHUNK = 50;

export interface ViewBuffer {
  /** Whether (item, visitor, day) is waiting to be written. */
  has(view: PendingView): boolean;
  /** Views of the item waiting to be written (shown on top of the stored count). */
  pendingFor(itemId: number): number;
  /** Views of the item added in this process so far, written or not (never goes down). */
  addedFor(itemId: number): number;
  add(view: PendingView): void;
  /** Writes what is waiting; resolves when written. */
  flush(): Promise<void>;
  /** Adds the written views to items.view_count (the timer does this every VIEW_FOLD_MS). */
  fold(): Promise<void>;
}

/**
 * A page view used to be one write transaction per request (insert the dedupe row, bump the
 * counter): a commit per request, and for clients without the visitor cookie (crawlers, load
 * tests) every request is a new visitor. Views are now queued and written together, deduped
 * by item_views' primary key as before; a failed batch is kept for the next try.
 * One buffer per database, shared by every service instance of the process.
 */
function createViewBuffer(db: AppDatabase): ViewBuffer {
  const repo = suiteRepo(db);
  let pending = new Map<string, PendingView>();
  const perItem = new Map<number, number>();
  const addedPerItem = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let foldTimer: NodeJS.Timeout | undefined;
  let folding: Promise<void> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const keyOf = (v: PendingView) => `${v.itemId}|${v.day}|${v.visitorId}`;

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    writing = writing.then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await repo.recordViews([...batch.values()]);
        for (const v of batch.values()) {
          const n = (perItem.get(v.itemId) ?? 1) - 1;
          if (n > 0) perItem.set(v.itemId, n);
          else perItem.delete(v.itemId);
        }
      } catch (err) {
        for (const [k, v] of batch) pending.set(k, v);
        schedule();
        throw err;
      }
    });
    return writing;
  };
  const fold = (): Promise<void> => {
    folding ??= (async () => {
      try {
        while ((await repo.foldViewDeltas(FOLD_CHUNK)) === FOLD_CHUNK) await nextTurn();
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
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => void flush().catch(() => undefined), VIEW_FLUSH_MS);
    timer.unref();
  };

  return {
    has: (v) => pending.has(keyOf(v)),
    pendingFor: (itemId) => perItem.get(itemId) ?? 0,
    addedFor: (itemId) => addedPerItem.get(itemId) ?? 0,
    add(v) {
      const key = keyOf(v);
      if (pending.has(key)) return;
      pending.set(key, v);
      perItem.set(v.itemId, (perItem.get(v.itemId) ?? 0) + 1);
      addedPerItem.set(v.itemId, (addedPerItem.get(v.itemId) ?? 0) + 1);
      if (pending.size >= MAX_PENDING) void flush().catch(() => undefined);
      else schedule();
      scheduleFold();
    },
    flush,
    fold,
  };
}

const buffers = new WeakMap<AppDatabase, ViewBuffer>();

export function viewBuffer(db: AppDatabase): ViewBuffer {
  let buffer = buffers.get(db);
  if (!buffer) buffers.set(db, (buffer = createViewBuffer(db)));
  return buffer;
}
