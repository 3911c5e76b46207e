import type { StateStorage } from "zustand/middleware";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PlayerItem } from "./player-item";
import { createPlayerStore, currentItem, PLAYER_STORAGE_KEY } from "./player-store";
import { moveItem } from "./queue";

const item = (n: number): PlayerItem => ({ id: n, name: `串烧${n}`, artist: "DJ阿远", cover: "/img/noimage.png", url: `/media/${n}.mp3`, mimeType: "audio/mpeg" });
const names = (s: { items: PlayerItem[] }) => s.items.map((i) => i.name);

async function storeWith(n: number) {
  const data = new Map<string, string>();
  const storage: StateStorage = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
  const store = createPlayerStore(() => storage);
  await store.persist.rehydrate();
  for (let i = 1; i <= n; i++) store.getState().playItem(item(i));
  return { store, data, storage };
}

afterEach(() => vi.useRealTimers());

describe("the phone player's queue order", () => {
  it("moves an entry up and down; the entry playing stays current wherever it goes", async () => {
    const { store } = await storeWith(4);
    store.getState().playIndex(1); // 串烧2 plays
    store.getState().move(3, 2);
    expect(names(store.getState())).toEqual(["串烧1", "串烧2", "串烧4", "串烧3"]);
    expect(currentItem(store.getState())?.name).toBe("串烧2");
    store.getState().move(1, 0);
    expect(names(store.getState())).toEqual(["串烧2", "串烧1", "串烧4", "串烧3"]);
    expect(store.getState().index).toBe(0);
    // Moving another entry over the current one shifts the current index, not what plays.
    store.getState().move(1, 0);
    expect(names(store.getState())).toEqual(["串烧1", "串烧2", "串烧4", "串烧3"]);
    expect(currentItem(store.getState())?.name).toBe("串烧2");
    expect(store.getState().index).toBe(1);
  });

  it("a move past either end, or onto itself, changes nothing and does not reload", async () => {
    const { store } = await storeWith(3);
    const before = store.getState();
    store.getState().move(0, -1);
    store.getState().move(2, 3);
    store.getState().move(1, 1);
    expect(store.getState().items).toBe(before.items);
    expect(store.getState().load.token).toBe(before.load.token);
    expect(moveItem({ items: [item(1), item(2)], index: 1 }, 1, 0)).toEqual({ items: [item(2), item(1)], index: 0 });
    expect(moveItem({ items: [item(1), item(2), item(3)], index: 1 }, 2, 0).index).toBe(2);
  });
});

describe("speed and sleep timer", () => {
  it("keeps the speed within 0.75-2 and restores it after a reload", async () => {
    const { store, storage } = await storeWith(1);
    store.getState().setRate(3);
    expect(store.getState().rate).toBe(2);
    store.getState().setRate(0.5);
    expect(store.getState().rate).toBe(0.75);
    store.getState().setRate(1.5);
    const again = createPlayerStore(() => storage);
    await again.persist.rehydrate();
    expect(again.getState().rate).toBe(1.5);
  });

  it("sets the sleep timer to minutes from now or to the end of the entry, and is never kept across reloads", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-27T10:00:00Z") });
    const { store, data } = await storeWith(1);
    store.getState().setSleep(15);
    expect(store.getState().sleep).toEqual({ at: Date.parse("2026-11-27T10:15:00Z"), afterItem: false });
    store.getState().setSleep("item");
    expect(store.getState().sleep).toEqual({ at: null, afterItem: true });
    expect(data.get(PLAYER_STORAGE_KEY)).not.toContain("afterItem");
    store.getState().setSleep(null);
    expect(store.getState().sleep).toBeNull();
  });
});
