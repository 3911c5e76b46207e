import { type PlayerItem, sameItem } from "./player-item";

/** The playlist and which entry is current (-1: none). Pure: the store applies these. */
export interface Queue {
  items: PlayerItem[];
  index: number;
}

export const EMPTY_QUEUE: Queue = { items: [], index: -1 };

/**
 * Adds `item` at the end unless it is already listed, and makes it current. A listed entry takes
 * the item's newer title, artist and cover (an admin may have renamed the suite since).
 */
export function addAndSelect(q: Queue, item: PlayerItem): Queue {
  const at = q.items.findIndex((it) => sameItem(it, item));
  if (at >= 0) return { items: refreshed(q.items, item) ?? q.items, index: at };
  return { items: [...q.items, item], index: q.items.length };
}

/**
 * Adds every item not yet listed at the end, in order (listed ones take their newer details and
 * keep their place); `first` is where the first of `items` now is (-1 when `items` is empty).
 * The current entry stays current: 播放全部 then selects `first`.
 */
export function appendAll(q: Queue, items: readonly PlayerItem[]): Queue & { first: number } {
  let list = q.items;
  let first = -1;
  for (const item of items) {
    const at = list.findIndex((it) => sameItem(it, item));
    if (at >= 0) list = refreshed(list, item) ?? list;
    else list = [...list, item];
    if (first < 0) first = at >= 0 ? at : list.length - 1;
  }
  return { items: list, index: q.index, first };
}

/**
 * The entries of `fresh`'s item (same id) with its title, artist, cover and page, and its
 * tracklist when it has one; null when nothing changes. The queue is kept in localStorage, so
 * without this a suite renamed in the back office kept its old title in the player (issue 25).
 */
export function refreshed(items: PlayerItem[], fresh: PlayerItem): PlayerItem[] | null {
  let changed = false;
  const next = items.map((it) => {
    if (String(it.id) !== String(fresh.id)) return it;
    const page = fresh.page ?? it.page;
    const tracks = fresh.tracks ?? it.tracks;
    const sameTracks = JSON.stringify(it.tracks) === JSON.stringify(tracks);
    if (it.name === fresh.name && it.artist === fresh.artist && it.cover === fresh.cover && it.page === page && sameTracks) return it;
    changed = true;
    return { ...it, name: fresh.name, artist: fresh.artist, cover: fresh.cover, ...(page ? { page } : {}), ...(tracks ? { tracks } : {}) };
  });
  return changed ? next : null;
}

/** The next entry, or null at the end (the player stops there rather than wrapping round). */
export function nextIndex(q: Queue): number | null {
  return q.index + 1 < q.items.length ? q.index + 1 : null;
}

/** The previous entry, or null at the start. */
export function previousIndex(q: Queue): number | null {
  return q.index > 0 ? q.index - 1 : null;
}

export function select(q: Queue, index: number): Queue {
  return index >= 0 && index < q.items.length ? { items: q.items, index } : q;
}

/**
 * Removes entry `at`. Removing the current entry makes the one after it current (or, when it
 * was the last, the one before); `currentRemoved` tells the player to load the new current.
 */
export function removeAt(q: Queue, at: number): Queue & { currentRemoved: boolean } {
  if (at < 0 || at >= q.items.length) return { ...q, currentRemoved: false };
  const items = q.items.filter((_, i) => i !== at);
  if (at < q.index) return { items, index: q.index - 1, currentRemoved: false };
  if (at > q.index) return { items, index: q.index, currentRemoved: false };
  return { items, index: Math.min(at, items.length - 1), currentRemoved: true };
}

/**
 * Moves entry `from` to `to` (the phone player's up/down buttons); the current entry stays
 * current wherever it goes. Out of range: unchanged.
 */
export function moveItem(q: Queue, from: number, to: number): Queue {
  const n = q.items.length;
  if (from < 0 || from >= n || to < 0 || to >= n || from === to) return q;
  const items = q.items.slice();
  const [moved] = items.splice(from, 1);
  items.splice(to, 0, moved);
  let index = q.index;
  if (q.index === from) index = to;
  else if (from < q.index && to >= q.index) index = q.index - 1;
  else if (from > q.index && to <= q.index) index = q.index + 1;
  return { items, index };
}

export const clampVolume = (v: number) => Math.round(Math.min(100, Math.max(0, Number.isFinite(v) ? v : 0)));
