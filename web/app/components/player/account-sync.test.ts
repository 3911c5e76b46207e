import type { PlayerState as AccountPlayer } from "@contracts/library";
import { beforeEach, describe, expect, it } from "vitest";
import { catalogueId, planLoginMerge, pointsToSend, queueForAccount } from "./account-sync";
import type { PlayerItem } from "./player-item";
import { createPlayerStore } from "./player-store";
import { mergeResumePoints, onResumeMerged, readResume, resumePoints, saveResume } from "./resume";

/** A real in-memory Storage for the module that reads `localStorage`. */
class MemoryStorage {
  private data = new Map<string, string>();
  get length() {
    return this.data.size;
  }
  key = (i: number) => [...this.data.keys()][i] ?? null;
  getItem = (k: string) => this.data.get(k) ?? null;
  setItem = (k: string, v: string) => void this.data.set(k, String(v));
  removeItem = (k: string) => void this.data.delete(k);
  clear = () => this.data.clear();
}

const entry = (id: number | string, page?: string): PlayerItem => ({
  id,
  name: `串烧${id}`,
  artist: "DJ阿远",
  cover: "/img/noimage.png",
  url: `/media/${id}.mp3`,
  mimeType: "audio/mpeg",
  page: page ?? `/sutie/${id}.html`,
});

const account = (over: Partial<AccountPlayer> = {}): AccountPlayer => ({
  positions: [],
  queue: { items: [], index: -1, updatedAt: null },
  ...over,
});

beforeEach(() => {
  (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
});

describe("resume points in the browser", () => {
  it("keeps a finished or restarted suite as 'from the start' so an older point elsewhere cannot come back", () => {
    saveResume(7, 300, 3600, 1_000);
    expect(readResume(7)).toBe(300);
    saveResume(7, 3590, 3600, 2_000); // near the end: finished
    expect(readResume(7)).toBeNull();
    expect(resumePoints()).toEqual([{ id: "7", position: 0, duration: 3600, at: 2_000 }]);
    // The account's older point (from before the listener finished) does not win.
    expect(mergeResumePoints([{ id: "7", position: 300, duration: 3600, at: 1_500 }])).toBe(0);
    expect(readResume(7)).toBeNull();
    // Nothing is written for a short start of a suite that had no point.
    saveResume(8, 3, 3600, 3_000);
    expect(resumePoints().map((p) => p.id)).toEqual(["7"]);
  });

  it("takes the account's newer points and tells the page", () => {
    saveResume(1, 100, 3600, 5_000);
    saveResume(2, 200, 3600, 5_000);
    let told = 0;
    const stop = onResumeMerged(() => told++);
    const taken = mergeResumePoints([
      { id: "1", position: 900, duration: 3600, at: 9_000 }, // newer: taken
      { id: "2", position: 50, duration: 3600, at: 1_000 }, // older: kept
      { id: "3", position: 42, duration: 600, at: 2_000 }, // new here: taken
    ]);
    stop();
    expect(taken).toBe(2);
    expect(told).toBe(1);
    expect([readResume(1), readResume(2), readResume(3)]).toEqual([900, 200, 42]);
  });
});

describe("the login merge plan", () => {
  it("resume points: each side gets what the other has newer; only catalogue ids go to the account", () => {
    const local = [
      { id: "1", position: 100, duration: 3600, at: 9_000 },
      { id: "2", position: 20, duration: 0, at: 1_000 },
      { id: "abc", position: 30, duration: 60, at: 9_000 },
    ];
    const plan = planLoginMerge(
      { points: local, queue: { items: [], index: -1 } },
      account({ positions: [{ id: 1, position: 50, duration: 3600, updatedAt: 5_000 }, { id: 2, position: 70, duration: null, updatedAt: 2_000 }] }),
    );
    expect(plan.send).toEqual([{ id: 1, position: 100, duration: 3600, updatedAt: 9_000 }]);
    expect(plan.take).toEqual([
      { id: "1", position: 50, duration: 3600, at: 5_000 },
      { id: "2", position: 70, duration: 0, at: 2_000 },
    ]);
    expect(pointsToSend(local, new Map()).map((p) => p.id)).toEqual([1, 2]);
  });

  it("queue: the account's when the browser's is empty, else the browser's catalogue entries", () => {
    const saved = account({
      queue: {
        items: [{ id: 5, name: "夜店", artist: "DJ", cover: "/c.jpg", palyurl: "/media/v.mp4", playtype: "mp4", url: "/sutie/5.html" }],
        index: 0,
        updatedAt: 1,
      },
    });
    const adopt = planLoginMerge({ points: [], queue: { items: [], index: -1 } }, saved).queue;
    expect(adopt).toEqual({
      kind: "adopt",
      index: 0,
      items: [{ id: 5, name: "夜店", artist: "DJ", cover: "/c.jpg", url: "/media/v.mp4", mimeType: "video/mp4", page: "/sutie/5.html" }],
    });
    const browser = { items: [entry(1), entry("x9", "https://www.djuu.com/play/9.html"), entry(3)], index: 2 };
    expect(planLoginMerge({ points: [], queue: browser }, saved).queue).toEqual({ kind: "upload", ids: [1, 3], index: 1 });
  });

  it("the account keeps at most 200 entries, around the current one", () => {
    const items = Array.from({ length: 300 }, (_, i) => entry(i + 1));
    const q = queueForAccount({ items, index: 250 });
    expect(q.ids).toHaveLength(200);
    expect(q.ids[q.index]).toBe(251);
    expect(queueForAccount({ items, index: 10 }).ids[10]).toBe(11);
    expect(catalogueId(entry(12))).toBe(12);
    expect(catalogueId(entry(12, "/site/12.html"))).toBeNull();
  });

  it("adopting the account's queue fills an empty player only, paused at the resume point", async () => {
    const store = createPlayerStore(() => ({ getItem: () => null, setItem: () => {}, removeItem: () => {} }));
    await store.persist.rehydrate();
    store.getState().adoptQueue([entry(1), entry(2)], 1, 125);
    expect(store.getState()).toMatchObject({ index: 1, position: 125, load: { startAt: 125, autoplay: false } });
    store.getState().adoptQueue([entry(9)], 0);
    expect(store.getState().items.map((i) => i.id)).toEqual([1, 2]);
  });
});
