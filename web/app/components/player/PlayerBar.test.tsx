import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PlayerItem } from "./player-item";
import { knownDuration } from "./player-item";
import { PlayerBar, UNKNOWN_TIME } from "./PlayerBar";
import { createPlayerStore, playerStore } from "./player-store";

const entry = (extra: Partial<PlayerItem> = {}): PlayerItem => ({
  id: 7,
  name: "串烧",
  artist: "DJ",
  cover: "/img/noimage.png",
  url: "/media/7.mp3",
  mimeType: "audio/mpeg",
  page: "/sutie/7.html",
  ...extra,
});

/** The bar as a reload leaves it: the entry restored at 0:38, the media not loaded (duration 0). */
function restoredBar(item: PlayerItem, mediaDuration = 0) {
  playerStore.setState({ items: [item], index: 0, position: 38, duration: mediaDuration, playing: false });
  // A server render reads the store's initial state (zustand's server snapshot): this one is it.
  vi.spyOn(playerStore, "getInitialState").mockReturnValue(playerStore.getState());
  const html = renderToString(
    <MemoryRouter>
      <PlayerBar />
    </MemoryRouter>,
  );
  const slider = /<input[^>]*aria-label="播放进度"[^>]*>/.exec(html)?.[0] ?? "";
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(slider)?.[1];
  const progress = /data-player-progress="">(.*?)<\/div>/.exec(html)?.[1] ?? "";
  const times = [...progress.matchAll(/<span>([^<]*)<\/span>/g)].map((m) => m[1]);
  return { html, slider, attr, position: times[0], length: times[1] };
}

afterEach(() => {
  vi.restoreAllMocks();
  playerStore.setState({ items: [], index: -1, position: 0, duration: 0 });
});

describe("the restored player before its media has loaded", () => {
  it("shows the position against the entry's known length, the slider at its fraction", () => {
    const bar = restoredBar(entry({ duration: 3600 }));
    expect(bar.position).toBe("0:38");
    expect(bar.length).toBe("1:00:00");
    expect(bar.attr("max")).toBe("3600");
    expect(bar.attr("value")).toBe("38");
    expect(bar.slider).not.toMatch(/\sdisabled=""/);
  });

  it("shows --:-- and the slider at the start when the length is unknown", () => {
    const bar = restoredBar(entry());
    expect(bar.position).toBe("0:38");
    expect(bar.length).toBe(UNKNOWN_TIME);
    expect(bar.length).toBe("--:--");
    // Not full: a range whose value exceeds max is drawn full.
    expect(bar.attr("value")).toBe("0");
    expect(bar.slider).toMatch(/\sdisabled=""/);
  });

  it("the media's own length wins once it reports one", () => {
    const bar = restoredBar(entry({ duration: 3600 }), 3000);
    expect(bar.length).toBe("50:00");
    expect(bar.attr("max")).toBe("3000");
  });
});

describe("knownDuration", () => {
  it("media first, then the entry's, else 0", () => {
    expect(knownDuration(120, { duration: 60 })).toBe(120);
    expect(knownDuration(0, { duration: 60 })).toBe(60);
    expect(knownDuration(Number.NaN, {})).toBe(0);
    expect(knownDuration(Number.POSITIVE_INFINITY, undefined)).toBe(0);
  });
});

describe("the entry keeps the media's length", () => {
  it("a reported duration is written on the current entry and survives a reload", () => {
    const data = new Map<string, string>();
    const storage = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k) };
    const store = createPlayerStore(() => storage);
    store.getState().playItem(entry());
    store.getState().patch({ duration: 1234.4, position: 40 });
    expect(store.getState().items[0].duration).toBe(1234);
    const items = store.getState().items;
    store.getState().patch({ duration: 1234.6 });
    expect(store.getState().items).toBe(items); // within a second: not rewritten

    const again = createPlayerStore(() => storage);
    void again.persist.rehydrate();
    expect(again.getState().duration).toBe(0);
    expect(knownDuration(again.getState().duration, again.getState().items[again.getState().index])).toBe(1234);
  });
});
