import { PLAYER_WAIT_POLL_MS, PLAYER_WAIT_TIMEOUT_MS, playerMessages, VIDEO_TIME_THROTTLE_MS } from "@contracts/player-texts";
import { hlsErrorText, isPlayableUrl, mediaErrorText, playRejectionText } from "./media-errors";
import { notePlaybackStarted, startListeningClock } from "./play-report";
import { HLS_MIME, isHls } from "./player-item";
import { currentItem, playerStore, type PlayerState, type PlayerStore } from "./player-store";
import { saveResume } from "./resume";

/**
 * The one media element of the site and what drives it. The store says what should play
 * (`load` requests, volume, mute); the element's events report back what does. The element
 * lives in the default layout, so client-side navigation never touches it.
 */
let element: HTMLMediaElement | null = null;
let hls: { destroy(): void } | null = null;
/** Where the loading item starts, applied once its metadata is known. */
let pendingStart = 0;
const RESUME_SAVE_MS = 5_000;

const patch: PlayerStore["patch"] = (p) => playerStore.getState().patch(p);

/** Spec section 9: wait for the media element at most 10 s, polling every 200 ms. */
export async function waitForMediaElement(): Promise<HTMLMediaElement> {
  const deadline = Date.now() + PLAYER_WAIT_TIMEOUT_MS;
  while (!element) {
    if (Date.now() >= deadline) throw new Error("media element never mounted");
    await new Promise((r) => setTimeout(r, PLAYER_WAIT_POLL_MS));
  }
  return element;
}

function teardownHls() {
  hls?.destroy();
  hls = null;
}

function unload(el: HTMLMediaElement) {
  teardownHls();
  el.removeAttribute("src");
  el.load();
}

async function loadCurrent() {
  const s = playerStore.getState();
  const { token, startAt, autoplay } = s.load;
  const item = currentItem(s);
  let el: HTMLMediaElement;
  try {
    el = await waitForMediaElement();
  } catch {
    return patch({ error: playerMessages.initFailed, playing: false });
  }
  const stale = () => playerStore.getState().load.token !== token;
  teardownHls();
  if (!item) return unload(el);
  if (!isPlayableUrl(item.url)) {
    unload(el);
    return patch({ error: playerMessages.badUrl, playing: false, buffering: false });
  }
  pendingStart = startAt;
  if (isHls(item) && !el.canPlayType(HLS_MIME)) {
    // Streams only: hls.js stays out of the initial bundle and loads on first use.
    try {
      const { default: Hls } = await import("hls.js/light");
      if (stale()) return;
      if (!Hls.isSupported()) return patch({ error: playerMessages.unsupported, playing: false });
      const instance = new Hls({ startPosition: startAt > 0 ? startAt : -1 });
      instance.on(Hls.Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        instance.destroy();
        if (hls === instance) hls = null;
        patch({ error: hlsErrorText(data.type, data.details), playing: false, buffering: false });
      });
      instance.loadSource(item.url);
      instance.attachMedia(el);
      hls = instance;
    } catch {
      return patch({ error: playerMessages.initFailed, playing: false });
    }
  } else if (!isHls(item) && el.canPlayType(item.mimeType) === "") {
    unload(el);
    return patch({ error: playerMessages.unsupported, playing: false });
  } else {
    el.src = item.url;
  }
  if (autoplay && !stale()) await startPlaying(el);
}

async function startPlaying(el: HTMLMediaElement) {
  try {
    await el.play();
  } catch (err) {
    const text = playRejectionText(err);
    if (text) patch({ ...text, playing: false });
  }
}

/** Reloads the current entry (after an error or a reload) at `startAt`, playing. */
function reload(startAt: number) {
  playerStore.setState((s) => ({ error: null, load: { token: s.load.token + 1, startAt, autoplay: true } }));
}

const needsLoad = (el: HTMLMediaElement) => !!el.error || (!el.currentSrc && !hls);

export const playerControls = {
  async play() {
    const s = playerStore.getState();
    if (!currentItem(s)) return;
    let el: HTMLMediaElement;
    try {
      el = await waitForMediaElement();
    } catch {
      return patch({ error: playerMessages.initFailed });
    }
    if (needsLoad(el)) return reload(s.position);
    await startPlaying(el);
  },
  pause() {
    element?.pause();
  },
  toggle() {
    if (element && !element.paused) element.pause();
    else void playerControls.play();
  },
  /** Seeks within the current entry; `andPlay` starts it when paused (the detail page's tracklist). */
  seek(seconds: number, andPlay = false) {
    const s = playerStore.getState();
    const el = element;
    if (!currentItem(s)) return;
    const max = s.duration > 0 ? s.duration : Number.POSITIVE_INFINITY;
    const to = Math.min(Math.max(0, seconds), max);
    if (!el || needsLoad(el)) return andPlay ? reload(to) : patch({ position: to });
    el.currentTime = to;
    patch({ position: to });
    if (andPlay && el.paused) void startPlaying(el);
  },
  seekBy(delta: number) {
    playerControls.seek((element?.currentTime ?? playerStore.getState().position) + delta);
  },
  next() {
    playerStore.getState().next();
  },
  /** Back to the start of this entry when well into it (or at the first entry), else the previous one. */
  previous() {
    const s = playerStore.getState();
    if (s.position > 3 || !s.previous()) playerControls.seek(0);
  },
};

function applyVolume(el: HTMLMediaElement, s: PlayerState) {
  el.volume = s.volume / 100;
  el.muted = s.muted;
}

/** A new source resets the element's speed to its default one: both follow the store. */
function applyRate(el: HTMLMediaElement, rate: number) {
  el.defaultPlaybackRate = rate;
  el.playbackRate = rate;
}

/** The sleep timer's clock: pauses at the set time and switches itself off (the end-of-entry kind waits for `ended`). */
function watchSleep(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (sleep: PlayerState["sleep"]) => {
    clearTimeout(timer);
    if (!sleep?.at) return;
    timer = setTimeout(() => {
      element?.pause();
      playerStore.setState({ sleep: null });
    }, Math.max(0, sleep.at - Date.now()));
  };
  arm(playerStore.getState().sleep);
  const unsubscribe = playerStore.subscribe((s, prev) => {
    if (s.sleep !== prev.sleep) arm(s.sleep);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}

/** Connects the element to the store; returns the disconnect. */
export function attachMediaElement(el: HTMLMediaElement): () => void {
  element = el;
  let lastTime = 0;
  let lastResume = 0;
  const itemId = () => currentItem(playerStore.getState())?.id;
  const rememberPosition = () => {
    const id = itemId();
    if (id !== undefined) saveResume(id, el.currentTime, el.duration || 0);
  };

  const on: Record<string, () => void> = {
    play: () => patch({ playing: true, error: null, warning: null }),
    playing: () => {
      patch({ buffering: false });
      // The server keeps when a playback began: its qualified play counts 30 s after that.
      notePlaybackStarted();
    },
    waiting: () => patch({ buffering: true }),
    pause: () => {
      patch({ playing: false, position: el.currentTime });
      rememberPosition();
    },
    loadedmetadata: () => {
      if (pendingStart > 0 && Math.abs(el.currentTime - pendingStart) > 0.5) el.currentTime = pendingStart;
      pendingStart = 0;
    },
    durationchange: () => {
      if (Number.isFinite(el.duration)) patch({ duration: el.duration });
    },
    // Spec section 9: time updates at most every 200 ms.
    timeupdate: () => {
      const now = Date.now();
      if (now - lastTime < VIDEO_TIME_THROTTLE_MS || el.seeking || pendingStart > 0) return;
      lastTime = now;
      patch({ position: el.currentTime });
      if (now - lastResume > RESUME_SAVE_MS) {
        lastResume = now;
        rememberPosition();
      }
    },
    seeked: () => patch({ position: el.currentTime }),
    ended: () => {
      const id = itemId();
      if (id !== undefined) saveResume(id, 0, el.duration || 0);
      patch({ playing: false });
      // The sleep timer set to the end of this entry: stop here.
      if (playerStore.getState().sleep?.afterItem) return playerStore.setState({ sleep: null });
      // The next entry plays; at the end of the list the next press of play starts a new playback.
      if (!playerStore.getState().next()) playerStore.getState().newPlayback();
    },
    error: () => {
      const text = mediaErrorText(el.error?.code);
      if (text && el.getAttribute("src")) patch({ error: text, playing: false, buffering: false });
    },
  };
  for (const [name, fn] of Object.entries(on)) el.addEventListener(name, fn);

  applyVolume(el, playerStore.getState());
  applyRate(el, playerStore.getState().rate);
  const unsubscribe = playerStore.subscribe((s, prev) => {
    if (s.load.token !== prev.load.token) void loadCurrent();
    if (s.volume !== prev.volume || s.muted !== prev.muted) applyVolume(el, s);
    if (s.rate !== prev.rate) applyRate(el, s.rate);
  });
  const stopSleep = watchSleep();
  const stopClock = startListeningClock(() => element);
  const saveOnLeave = () => rememberPosition();
  window.addEventListener("pagehide", saveOnLeave);

  return () => {
    for (const [name, fn] of Object.entries(on)) el.removeEventListener(name, fn);
    window.removeEventListener("pagehide", saveOnLeave);
    unsubscribe();
    stopSleep();
    stopClock();
    teardownHls();
    if (element === el) element = null;
  };
}
