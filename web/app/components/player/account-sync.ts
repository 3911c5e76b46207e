import type { PlaybackPosition, PlayerState as AccountPlayer, QueueEntry } from "@contracts/library";
import { libraryPaths, POSITIONS_MAX, QUEUE_MAX_ITEMS } from "@contracts/library-texts";
import { storedToken } from "../../lib/user-api";
import { getPlayerState, putPositions, putQueue } from "../library/library-api";
import { mimeTypeOf, type PlayerItem } from "./player-item";
import { playerStore, type PlayerState } from "./player-store";
import { mergeResumePoints, readResume, type ResumePoint, resumePoints } from "./resume";

/** While playing, resume points go to the account this often (and at every pause and page exit). */
export const POSITION_SYNC_MS = 15_000;
/** Queue edits come in bursts (adding, removing several): sent once they settle. */
export const QUEUE_SYNC_DEBOUNCE_MS = 2_000;

const CATALOGUE_PAGE = /^\/sutie\/([1-9]\d{0,9})\.html$/;

/** Our catalogue's id of a playlist entry (its detail page says so), or null for anything else. */
export function catalogueId(item: Pick<PlayerItem, "page">): number | null {
  const match = CATALOGUE_PAGE.exec(item.page ?? "");
  return match ? Number(match[1]) : null;
}

/** The playlist as the account keeps it: catalogue ids (at most 200 around the current one) and the current index. */
export function queueForAccount(s: Pick<PlayerState, "items" | "index">): { ids: number[]; index: number } {
  let ids: number[] = [];
  let index = -1;
  s.items.forEach((item, i) => {
    const id = catalogueId(item);
    if (id === null) return;
    if (i === s.index) index = ids.length;
    ids.push(id);
  });
  if (ids.length > QUEUE_MAX_ITEMS) {
    const start = Math.max(0, Math.min(index - QUEUE_MAX_ITEMS / 2, ids.length - QUEUE_MAX_ITEMS));
    ids = ids.slice(start, start + QUEUE_MAX_ITEMS);
    index = index < 0 ? -1 : index - start;
  }
  return { ids, index };
}

/** An account queue entry as a playlist entry. */
export function fromQueueEntry(e: QueueEntry): PlayerItem {
  return { id: e.id, name: e.name, artist: e.artist, cover: e.cover, url: e.palyurl, mimeType: mimeTypeOf(e.palyurl, e.playtype), page: e.url };
}

/** This browser's points the account lacks or holds older (catalogue ids only), as the server takes them. */
export function pointsToSend(local: readonly ResumePoint[], account: ReadonlyMap<number, number>): PlaybackPosition[] {
  return local
    .filter((p) => /^[1-9]\d{0,9}$/.test(p.id) && (account.get(Number(p.id)) ?? -1) < p.at)
    .slice(0, POSITIONS_MAX)
    .map((p) => ({ id: Number(p.id), position: Math.max(0, p.position), duration: p.duration > 0 ? p.duration : null, updatedAt: Math.floor(p.at) }));
}

/**
 * What happens on login (ADR 0019): resume points merge both ways, the newest per item
 * winning; the queue is the account's when this browser's is empty, else this browser's.
 */
export function planLoginMerge(local: { points: readonly ResumePoint[]; queue: Pick<PlayerState, "items" | "index"> }, account: AccountPlayer) {
  const accountAt = new Map(account.positions.map((p) => [p.id, p.updatedAt]));
  return {
    take: account.positions.map((p) => ({ id: String(p.id), position: p.position, duration: p.duration ?? 0, at: p.updatedAt })),
    send: pointsToSend(local.points, accountAt),
    queue: (local.queue.items.length === 0
      ? { kind: "adopt", items: account.queue.items.map(fromQueueEntry), index: account.queue.index }
      : { kind: "upload", ...queueForAccount(local.queue) }) as
      | { kind: "adopt"; items: PlayerItem[]; index: number }
      | { kind: "upload"; ids: number[]; index: number },
  };
}

/** A write that must leave even while the page unloads (keepalive; the envelope is not awaited). */
function sendOnExit(path: string, body: unknown) {
  const token = storedToken();
  if (!token) return;
  void fetch(path, {
    method: "PUT",
    keepalive: true,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }).catch(() => undefined);
}

/** Merges on login, then keeps the account up to date; returns the stop. */
export function startAccountSync(): () => void {
  let stopped = false;
  let sentUpTo = Number.POSITIVE_INFINITY; // nothing is sent before the login merge
  let queueKey = "";
  let queueTimer: ReturnType<typeof setTimeout> | undefined;
  const keyOf = (q: { ids: number[]; index: number }) => `${q.ids.join(",")}@${q.index}`;

  const positionsSince = () => pointsToSend(resumePoints().filter((p) => p.at > sentUpTo), new Map());
  async function sendPositions() {
    const batch = positionsSince();
    if (batch.length === 0 || stopped) return;
    const before = sentUpTo;
    sentUpTo = Math.max(...batch.map((p) => p.updatedAt));
    const ok = await putPositions(batch).then((r) => r.code === 1).catch(() => false);
    if (!ok) sentUpTo = before;
  }
  async function sendQueue() {
    const q = queueForAccount(playerStore.getState());
    const key = keyOf(q);
    if (key === queueKey || stopped) return;
    queueKey = key;
    const ok = await putQueue(q.ids, q.index).then((r) => r.code === 1).catch(() => false);
    if (!ok) queueKey = "";
  }

  async function merge() {
    if (!playerStore.persist.hasHydrated()) await new Promise<void>((resolve) => playerStore.persist.onFinishHydration(() => resolve()));
    const res = await getPlayerState().catch(() => null);
    if (stopped || !res || res.code !== 1) return;
    const plan = planLoginMerge({ points: resumePoints(), queue: playerStore.getState() }, res.data);
    mergeResumePoints(plan.take);
    sentUpTo = Date.now();
    if (plan.send.length) await putPositions(plan.send).catch(() => undefined);
    if (plan.queue.kind === "adopt") {
      const { items, index } = plan.queue;
      const current = items[index];
      playerStore.getState().adoptQueue(items, index, current ? (readResume(current.id) ?? 0) : 0);
      queueKey = keyOf(queueForAccount(playerStore.getState()));
    } else if (plan.queue.ids.length) {
      await sendQueue();
    }
  }
  const merged = merge();

  const unsubscribe = playerStore.subscribe((s, prev) => {
    if (s.items !== prev.items || s.index !== prev.index) {
      clearTimeout(queueTimer);
      queueTimer = setTimeout(() => void merged.then(sendQueue), QUEUE_SYNC_DEBOUNCE_MS);
    }
    // The media element saves the point right after reporting the pause.
    if (prev.playing && !s.playing) setTimeout(() => void merged.then(sendPositions), 0);
  });
  const timer = setInterval(() => {
    if (playerStore.getState().playing) void sendPositions();
  }, POSITION_SYNC_MS);
  const onExit = () => {
    const batch = positionsSince();
    if (batch.length) sendOnExit(libraryPaths.playerPositions, { positions: batch });
    const q = queueForAccount(playerStore.getState());
    if (queueKey && keyOf(q) !== queueKey) sendOnExit(libraryPaths.playerQueue, q);
  };
  window.addEventListener("pagehide", onExit);

  return () => {
    stopped = true;
    unsubscribe();
    clearInterval(timer);
    clearTimeout(queueTimer);
    window.removeEventListener("pagehide", onExit);
  };
}
