import type { StateStorage } from "zustand/middleware";
import { describe, expect, it } from "vitest";
import { fromCatalogueItem, mimeTypeOf, type PlayerItem, timedTracks, trackAt } from "./player-item";
import { createPlayerStore, currentItem, PLAYER_STORAGE_KEY } from "./player-store";

/** A real in-memory Storage (what localStorage is to the store). */
function memoryStorage(): StateStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const item = (n: number, extra: Partial<PlayerItem> = {}): PlayerItem => ({
  id: n,
  name: `串烧${n}`,
  artist: "DJ阿远",
  cover: "/img/noimage.png",
  url: `/media/${n}.mp3`,
  mimeType: "audio/mpeg",
  ...extra,
});

async function storeWith(...items: PlayerItem[]) {
  const storage = memoryStorage();
  const store = createPlayerStore(() => storage);
  await store.persist.rehydrate();
  for (const it of items) store.getState().playItem(it);
  return { store, storage };
}

const names = (s: { items: PlayerItem[] }) => s.items.map((i) => i.name);

describe("player store: queue", () => {
  it("an entry takes the suite's newer title, artist and cover from its next answer, and keeps it stored (issue 25)", async () => {
    const { store, storage } = await storeWith(item(1), item(2));
    const renamed = item(1, { name: "串烧1 (新版)", artist: "DJ小王", cover: "/uploads/covers/1.webp", tracks: [{ label: "夜曲", start: 0 }] });
    store.getState().refreshItem(renamed);
    expect(names(store.getState())).toEqual(["串烧1 (新版)", "串烧2"]);
    expect(store.getState().items[0]).toMatchObject({ artist: "DJ小王", cover: "/uploads/covers/1.webp", url: "/media/1.mp3", tracks: [{ label: "夜曲", start: 0 }] });
    expect(store.getState().index).toBe(1); // what plays is unchanged
    expect(storage.data.get(PLAYER_STORAGE_KEY)).toContain("串烧1 (新版)");
    // Nothing new: the same list (no store write).
    const before = store.getState().items;
    store.getState().refreshItem(renamed);
    expect(store.getState().items).toBe(before);
    // Played again from a list with the new title: the listed entry takes it too.
    store.getState().playItem(item(2, { name: "串烧2 (改名)" }));
    expect(names(store.getState())).toEqual(["串烧1 (新版)", "串烧2 (改名)"]);
  });

  it("播放全部 adds a list's new items at the end, once each, and plays its first item", async () => {
    const { store } = await storeWith(item(1), item(2));
    const token = store.getState().load.token;
    store.getState().addAll([item(3), item(1), item(4)], true);
    expect(names(store.getState())).toEqual(["串烧1", "串烧2", "串烧3", "串烧4"]);
    expect(currentItem(store.getState())?.id).toBe(3);
    expect(store.getState().load).toMatchObject({ token: token + 1, autoplay: true, startAt: 0 });
    // A list whose first item is listed already plays it where it is.
    store.getState().addAll([item(2), item(5)], true);
    expect(names(store.getState())).toEqual(["串烧1", "串烧2", "串烧3", "串烧4", "串烧5"]);
    expect(currentItem(store.getState())?.id).toBe(2);
  });

  it("全部加入播放列表 adds without changing what plays; into an empty playlist the first is loaded paused", async () => {
    const { store } = await storeWith(item(1));
    const token = store.getState().load.token;
    store.getState().addAll([item(2), item(3)], false);
    expect(names(store.getState())).toEqual(["串烧1", "串烧2", "串烧3"]);
    expect(currentItem(store.getState())?.id).toBe(1);
    expect(store.getState().load.token).toBe(token);

    const empty = await storeWith();
    empty.store.getState().addAll([item(7), item(8)], false);
    expect(currentItem(empty.store.getState())?.id).toBe(7);
    expect(empty.store.getState().load.autoplay).toBe(false);
    empty.store.getState().addAll([], true);
    expect(names(empty.store.getState())).toEqual(["串烧7", "串烧8"]);
  });

  it("keeps the playlist in the order items were added, and re-playing a listed item does not duplicate it", async () => {
    const { store } = await storeWith(item(1), item(2), item(3));
    expect(names(store.getState())).toEqual(["串烧1", "串烧2", "串烧3"]);
    expect(store.getState().index).toBe(2);
    store.getState().playItem(item(1));
    expect(names(store.getState())).toEqual(["串烧1", "串烧2", "串烧3"]);
    expect(currentItem(store.getState())?.id).toBe(1);
  });

  it("asks the engine to load and play on every selection, from a start position when given", async () => {
    const { store } = await storeWith(item(1));
    const before = store.getState().load.token;
    store.getState().playItem(item(2), 1800);
    expect(store.getState().load).toEqual({ token: before + 1, startAt: 1800, autoplay: true });
    expect(store.getState().position).toBe(1800);
  });

  it("stops at the ends: next on the last and previous on the first answer false and change nothing", async () => {
    const { store } = await storeWith(item(1), item(2));
    const token = store.getState().load.token;
    expect(store.getState().next()).toBe(false);
    expect(store.getState().index).toBe(1);
    expect(store.getState().load.token).toBe(token);
    expect(store.getState().previous()).toBe(true);
    expect(store.getState().index).toBe(0);
    expect(store.getState().previous()).toBe(false);
    expect(store.getState().index).toBe(0);
    expect(store.getState().next()).toBe(true);
    expect(currentItem(store.getState())?.id).toBe(2);
  });

  it("removing the current item makes the following one current (the previous one at the end)", async () => {
    const { store } = await storeWith(item(1), item(2), item(3));
    store.getState().playIndex(1);
    store.getState().patch({ playing: true });
    const token = store.getState().load.token;
    store.getState().remove(1);
    expect(names(store.getState())).toEqual(["串烧1", "串烧3"]);
    expect(currentItem(store.getState())?.id).toBe(3);
    expect(store.getState().load).toMatchObject({ token: token + 1, autoplay: true });
    store.getState().remove(1);
    expect(currentItem(store.getState())?.id).toBe(1);
    store.getState().remove(0);
    expect(store.getState()).toMatchObject({ items: [], index: -1, playing: false, playback: null });
  });

  it("removing another item keeps the current one playing undisturbed", async () => {
    const { store } = await storeWith(item(1), item(2), item(3));
    const token = store.getState().load.token;
    store.getState().remove(0);
    expect(currentItem(store.getState())?.id).toBe(3);
    expect(store.getState().index).toBe(1);
    expect(store.getState().load.token).toBe(token);
  });

  it("clear empties the playlist and stops", async () => {
    const { store } = await storeWith(item(1), item(2));
    store.getState().patch({ playing: true, position: 12 });
    store.getState().clear();
    expect(store.getState()).toMatchObject({ items: [], index: -1, playing: false, position: 0, playback: null });
    expect(store.getState().next()).toBe(false);
  });

  it("keeps volume within 0-100 and unmutes when the volume is raised", async () => {
    const { store } = await storeWith();
    store.getState().setVolume(150);
    expect(store.getState().volume).toBe(100);
    store.getState().setVolume(-3);
    expect(store.getState().volume).toBe(0);
    store.getState().toggleMute();
    expect(store.getState().muted).toBe(true);
    store.getState().setVolume(40);
    expect(store.getState()).toMatchObject({ volume: 40, muted: false });
  });

  it("starts a new playback (a new report id) for each selection", async () => {
    const { store } = await storeWith(item(1));
    const first = store.getState().playback!;
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    store.getState().addListened(12);
    expect(store.getState().playback!.listened).toBe(12);
    store.getState().playItem(item(2));
    expect(store.getState().playback).toMatchObject({ listened: 0, reported: false });
    expect(store.getState().playback!.id).not.toBe(first.id);
  });
});

describe("player store: persistence", () => {
  it("restores the playlist, current item, position, volume, mute and the playback after a reload, paused", async () => {
    const { store, storage } = await storeWith(item(1), item(2));
    store.getState().playIndex(0);
    store.getState().patch({ position: 1234.5, playing: true });
    store.getState().setVolume(35);
    store.getState().toggleMute();
    store.getState().addListened(31);
    store.getState().markReported();
    store.getState().setPanelOpen(true);
    const playback = store.getState().playback;

    const reloaded = createPlayerStore(() => storage);
    expect(reloaded.getState().items).toEqual([]);
    await reloaded.persist.rehydrate();
    const s = reloaded.getState();
    expect(names(s)).toEqual(["串烧1", "串烧2"]);
    expect(s).toMatchObject({ index: 0, position: 1234.5, volume: 35, muted: true, playing: false, panelOpen: false });
    // The same playback continues, already reported: a reload never counts a second play.
    expect(s.playback).toEqual(playback);
    expect(s.load).toMatchObject({ startAt: 1234.5, autoplay: false });
    expect(JSON.parse(storage.data.get(PLAYER_STORAGE_KEY)!).state).not.toHaveProperty("playing");
  });

  it("survives damaged or foreign storage contents", async () => {
    const storage = memoryStorage();
    storage.data.set(PLAYER_STORAGE_KEY, JSON.stringify({ state: { items: "x", index: 7, volume: 900 }, version: 1 }));
    const store = createPlayerStore(() => storage);
    await store.persist.rehydrate();
    expect(store.getState()).toMatchObject({ items: [], index: -1, volume: 100, playback: null });
    storage.data.set(PLAYER_STORAGE_KEY, "{not json");
    const again = createPlayerStore(() => storage);
    await again.persist.rehydrate().catch(() => undefined);
    expect(again.getState().items).toEqual([]);
  });
});

describe("player items", () => {
  it("takes a list item's fields with the spec's defaults and picks the media kind from type and url", () => {
    const it = fromCatalogueItem({ id: 9, name: "夜曲", artist: "", cover: "", palyurl: "/m/a.m3u8", playtype: "mp3", url: "/sutie/9.html" } as never);
    expect(it).toMatchObject({ artist: "未知歌手", cover: "/img/noimage.png", mimeType: "application/vnd.apple.mpegurl", page: "/sutie/9.html" });
    expect(mimeTypeOf("/v/demo.mp4", "mp4")).toBe("video/mp4");
    expect(mimeTypeOf("/a/x.m4a", "mp3")).toBe("audio/mp4");
    expect(mimeTypeOf("/a/x.mp3", "mp3")).toBe("audio/mpeg");
  });

  it("flattens a nested djlist into its timed tracks and finds the track at a time", () => {
    const tracks = timedTracks([
      { label: "上半场", items: [{ label: "2. B", start: 300 }, { label: "1. A", start: 0 }] },
      { label: "下半场", items: [{ label: "3. C", start: 600 }, { label: "未计时" }] },
    ]);
    expect(tracks.map((t) => t.label)).toEqual(["1. A", "2. B", "3. C"]);
    expect([trackAt(tracks, 0), trackAt(tracks, 299), trackAt(tracks, 300), trackAt(tracks, 5000)]).toEqual([0, 0, 1, 2]);
    expect(trackAt(undefined, 10)).toBe(-1);
  });
});
