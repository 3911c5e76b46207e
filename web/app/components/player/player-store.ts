import { useStore } from "zustand";
import { createJSONStorage, persist, type StateStorage } from "zustand/middleware";
import { createStore } from "zustand/vanilla";
import { type PlayerItem } from "./player-item";
import { addAndSelect, appendAll, clampVolume, EMPTY_QUEUE, moveItem, nextIndex, previousIndex, refreshed, removeAt, select } from "./queue";

/** One playback of the current item: what the qualified-play report is about. */
export interface Playback {
  id: string;
  /** Seconds of real listening so far (wall time while the media plays; seeks add nothing). */
  listened: number;
  reported: boolean;
}

export interface PlayerState {
  items: PlayerItem[];
  index: number;
  /** The media element is playing (reported by its events). */
  playing: boolean;
  position: number;
  duration: number;
  buffering: boolean;
  volume: number;
  muted: boolean;
  panelOpen: boolean;
  videoMinimised: boolean;
  videoFullscreen: boolean;
  error: string | null;
  warning: string | null;
  playback: Playback | null;
  /** Playback speed (0.75-2). */
  rate: number;
  /**
   * Sleep timer: playback pauses at `at` (epoch ms), or when the current entry ends
   * (`afterItem`) instead of going on to the next; null when off.
   */
  sleep: { at: number | null; afterItem: boolean } | null;
  /**
   * A load request for the media engine: bumped when the current entry must be (re)loaded,
   * starting at `startAt` and playing when `autoplay`.
   */
  load: { token: number; startAt: number; autoplay: boolean };
}

export interface PlayerActions {
  /** Adds the item (unless listed) and plays it, from `startAt` seconds when given. */
  playItem(item: PlayerItem, startAt?: number): void;
  playIndex(index: number, startAt?: number): void;
  /**
   * A list's 播放全部 (`play`) or 全部加入播放列表: adds the items not yet listed at the end;
   * `play` starts the list's first item. Added to an empty playlist, the first is loaded paused.
   */
  addAll(items: readonly PlayerItem[], play: boolean): void;
  /** Gives the listed entries of this item (same id) its current title, artist, cover and tracklist. */
  refreshItem(fresh: PlayerItem): void;
  /** Next entry; false at the end of the list. */
  next(): boolean;
  /** Previous entry; false at the start (the caller restarts the current one). */
  previous(): boolean;
  remove(index: number): void;
  clear(): void;
  /** Replaces an empty playlist with the account's (after login), loading the current entry paused at `startAt`. */
  adoptQueue(items: PlayerItem[], index: number, startAt?: number): void;
  setVolume(volume: number): void;
  toggleMute(): void;
  setPanelOpen(open: boolean): void;
  /** Moves an entry up or down the playlist (the current one stays current). */
  move(from: number, to: number): void;
  setRate(rate: number): void;
  /** Minutes from now, "item" for the end of the current entry, or null to switch it off. */
  setSleep(minutes: number | "item" | null): void;
  setVideoMinimised(minimised: boolean): void;
  setVideoFullscreen(fullscreen: boolean): void;
  /** Media element reports. */
  patch(p: Partial<Pick<PlayerState, "playing" | "position" | "duration" | "buffering" | "error" | "warning">>): void;
  newPlayback(): void;
  addListened(seconds: number): void;
  markReported(): void;
}

export type PlayerStore = PlayerState & PlayerActions;

export const PLAYER_STORAGE_KEY = "dj-player";

/** Url-safe random id (crypto.randomUUID needs a secure context; getRandomValues does not). */
export function newPlaybackId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const freshPlayback = (): Playback => ({ id: newPlaybackId(), listened: 0, reported: false });

const initialState = (): PlayerState => ({
  ...EMPTY_QUEUE,
  playing: false,
  position: 0,
  duration: 0,
  buffering: false,
  volume: 80,
  muted: false,
  panelOpen: false,
  videoMinimised: false,
  videoFullscreen: false,
  error: null,
  warning: null,
  playback: null,
  rate: 1,
  sleep: null,
  load: { token: 0, startAt: 0, autoplay: false },
});

/** What survives a reload: the playlist, the current entry, where it was, volume and mute. */
type Persisted = Pick<PlayerState, "items" | "index" | "position" | "volume" | "muted" | "playback" | "rate">;

export const PLAYBACK_RATES = [0.75, 1, 1.25, 1.5, 2] as const;
const clampRate = (r: number) => (Number.isFinite(r) ? Math.min(2, Math.max(0.75, r)) : 1);

const noStorage: StateStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };

/**
 * The player store. Browser code uses the one `playerStore` (localStorage); tests make their
 * own with any Storage. Hydration from storage is explicit (`persist.rehydrate()`), after React
 * has hydrated the server HTML, so the first client render matches the server's.
 */
export function createPlayerStore(storage: () => StateStorage = () => (typeof localStorage === "undefined" ? noStorage : localStorage)) {
  return createStore<PlayerStore>()(
    persist(
      (set, get) => {
        const loadCurrent = (index: number, startAt: number, autoplay: boolean) =>
          set((s) => ({
            index,
            position: startAt,
            duration: 0,
            error: null,
            warning: null,
            playback: freshPlayback(),
            load: { token: s.load.token + 1, startAt, autoplay },
          }));
        return {
          ...initialState(),
          playItem(item, startAt = 0) {
            const s = get();
            const q = addAndSelect(s, item);
            if (q.items !== s.items) set({ items: q.items });
            loadCurrent(q.index, startAt, true);
          },
          addAll(list, play) {
            const s = get();
            const q = appendAll(s, list);
            if (q.first < 0) return;
            if (q.items !== s.items) set({ items: q.items });
            if (play) loadCurrent(q.first, 0, true);
            else if (s.index < 0) loadCurrent(q.first, 0, false);
          },
          refreshItem(fresh) {
            const items = refreshed(get().items, fresh);
            if (items) set({ items });
          },
          playIndex(index, startAt = 0) {
            const q = select(get(), index);
            if (q.index === index) loadCurrent(index, startAt, true);
          },
          next() {
            const i = nextIndex(get());
            if (i === null) return false;
            loadCurrent(i, 0, true);
            return true;
          },
          previous() {
            const i = previousIndex(get());
            if (i === null) return false;
            loadCurrent(i, 0, true);
            return true;
          },
          remove(index) {
            const s = get();
            const q = removeAt(s, index);
            set({ items: q.items, index: q.index });
            if (!q.currentRemoved) return;
            if (q.index < 0) set({ playing: false, position: 0, duration: 0, playback: null, error: null });
            // The entry that took the removed one's place starts, playing if the removed one was.
            set((st) => ({
              load: { token: st.load.token + 1, startAt: 0, autoplay: s.playing },
              position: 0,
              duration: 0,
              playback: q.index < 0 ? null : freshPlayback(),
            }));
          },
          clear() {
            set((s) => ({
              ...EMPTY_QUEUE,
              playing: false,
              position: 0,
              duration: 0,
              error: null,
              warning: null,
              playback: null,
              panelOpen: s.panelOpen,
              load: { token: s.load.token + 1, startAt: 0, autoplay: false },
            }));
          },
          adoptQueue(items, index, startAt = 0) {
            if (get().items.length > 0 || items.length === 0) return;
            set({ items });
            loadCurrent(index >= 0 && index < items.length ? index : 0, startAt, false);
          },
          setVolume: (volume) => set({ volume: clampVolume(volume), ...(volume > 0 ? { muted: false } : {}) }),
          toggleMute: () => set((s) => ({ muted: !s.muted })),
          setPanelOpen: (panelOpen) => set({ panelOpen }),
          move(from, to) {
            const q = moveItem(get(), from, to);
            if (q.items !== get().items) set({ items: q.items, index: q.index });
          },
          setRate: (rate) => set({ rate: clampRate(rate) }),
          setSleep: (minutes) =>
            set({
              sleep: minutes === null ? null : minutes === "item" ? { at: null, afterItem: true } : { at: Date.now() + minutes * 60_000, afterItem: false },
            }),
          setVideoMinimised: (videoMinimised) => set({ videoMinimised }),
          setVideoFullscreen: (videoFullscreen) => set({ videoFullscreen }),
          patch: (p) =>
            set((s) => {
              // The media's length is kept on its entry too, so a reload can show it before the media loads.
              const item = s.items[s.index];
              const d = p.duration;
              if (!item || d === undefined || !Number.isFinite(d) || d <= 0 || Math.abs((item.duration ?? 0) - d) < 1) return p;
              const items = s.items.slice();
              items[s.index] = { ...item, duration: Math.round(d) };
              return { ...p, items };
            }),
          newPlayback: () => set({ playback: freshPlayback() }),
          addListened: (seconds) =>
            set((s) => (s.playback ? { playback: { ...s.playback, listened: s.playback.listened + seconds } } : {})),
          markReported: () => set((s) => (s.playback ? { playback: { ...s.playback, reported: true } } : {})),
        };
      },
      {
        name: PLAYER_STORAGE_KEY,
        version: 1,
        storage: createJSONStorage(storage),
        skipHydration: true,
        partialize: (s): Persisted => ({
          items: s.items,
          index: s.index,
          position: s.position,
          volume: s.volume,
          muted: s.muted,
          playback: s.playback,
          rate: s.rate,
        }),
        // After a reload the current entry is loaded where it stopped, paused (browsers would
        // block an unasked-for start anyway).
        merge: (persisted, current) => {
          const p = (persisted ?? {}) as Partial<Persisted>;
          const items = Array.isArray(p.items) ? p.items : [];
          const index = typeof p.index === "number" && p.index < items.length ? p.index : items.length ? 0 : -1;
          const position = typeof p.position === "number" && p.position > 0 ? p.position : 0;
          return {
            ...current,
            items,
            index,
            position,
            volume: clampVolume(p.volume ?? current.volume),
            muted: !!p.muted,
            rate: clampRate(p.rate ?? current.rate),
            playback: index >= 0 ? (p.playback ?? freshPlayback()) : null,
            load: { token: current.load.token + 1, startAt: position, autoplay: false },
          };
        },
      },
    ),
  );
}

export const playerStore = createPlayerStore();

export function usePlayer<T>(selector: (s: PlayerStore) => T): T {
  return useStore(playerStore, selector);
}

export const currentItem = (s: Pick<PlayerState, "items" | "index">): PlayerItem | undefined => s.items[s.index];
