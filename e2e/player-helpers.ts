import type { Page } from "playwright-core";
import type { MusicInfo } from "../contracts/suite";

export interface DemoItems {
  longMix: MusicInfo;
  hls: MusicInfo;
  video: MusicInfo;
  /** Short (30 s) audio items listed on the long mix's category page. */
  loops: MusicInfo[];
}

/** The seeded items the player tests need, found by their media. */
export async function findDemoItems(base: string): Promise<DemoItems> {
  const all: MusicInfo[] = [];
  for (let id = 1; id < 60; id++) {
    const body = await fetch(`${base}/api/forntend/getmusicinfo?id=${id}`).then((r) => r.json());
    if (body.code === 1) all.push(body.data);
  }
  const pick = (test: (i: MusicInfo) => boolean, what: string) => {
    const found = all.find(test);
    if (!found) throw new Error(`no seeded ${what}`);
    return found;
  };
  const longMix = pick((i) => i.palyurl.includes("66min"), "long mix");
  return {
    longMix,
    hls: pick((i) => i.palyurl.endsWith(".m3u8"), "HLS item"),
    video: pick((i) => i.playtype === "mp4", "video"),
    loops: all.filter((i) => i.channel.url === longMix.channel.url && (i.duration ?? 0) <= 31 && i.playtype === "mp3"),
  };
}

export interface MediaState {
  time: number;
  duration: number;
  paused: boolean;
  muted: boolean;
  volume: number;
  src: string;
  mark: unknown;
}

/** The global player's media element as the page sees it. */
export function mediaState(page: Page): Promise<MediaState> {
  return page.evaluate(() => {
    const el = document.querySelector("[data-player-media]") as HTMLVideoElement & { __mark?: unknown };
    return {
      time: el.currentTime,
      duration: el.duration,
      paused: el.paused,
      muted: el.muted,
      volume: el.volume,
      src: el.currentSrc,
      mark: el.__mark,
    };
  });
}

/**
 * Milliseconds from clicking the button labelled `label` until the media plays audibly: its
 * clock moving while not paused, watched every animation frame (time updates come only every
 * 250 ms). `playing` is when the element announced it started.
 */
export function clickToSound(page: Page, label: string): Promise<{ playing: number; sound: number }> {
  return page.evaluate((name) => {
    const el = document.querySelector("[data-player-media]") as HTMLMediaElement;
    const button = [...document.querySelectorAll("button")].find((b) => b.getAttribute("aria-label") === name);
    if (!button) throw new Error(`no button ${name}`);
    return new Promise<{ playing: number; sound: number }>((resolve) => {
      let playing = -1;
      const onPlaying = () => void (playing = performance.now() - t0);
      el.addEventListener("playing", onPlaying, { once: true });
      const t0 = performance.now();
      button.click();
      const startedAt = el.currentTime;
      const watch = () => {
        if (!el.paused && el.readyState >= 3 && el.currentTime > 0 && el.currentTime !== startedAt) {
          return resolve({ playing, sound: performance.now() - t0 });
        }
        requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
  }, label);
}

/**
 * Milliseconds from letting go of the progress slider at `target` seconds until the media
 * plays from there: its clock moving past the target, not paused, not seeking.
 */
export function seekToSound(page: Page, target: number): Promise<number> {
  return page.evaluate((to) => {
    const el = document.querySelector("[data-player-media]") as HTMLMediaElement;
    const slider = document.querySelector('[data-player-bar] input[aria-label="播放进度"]') as HTMLInputElement;
    return new Promise<number>((resolve) => {
      const t0 = performance.now();
      slider.value = String(to);
      slider.dispatchEvent(new Event("change", { bubbles: true }));
      let seen = -1;
      const watch = () => {
        const t = el.currentTime;
        const near = t >= to && t < to + 5;
        if (near && !el.paused && !el.seeking && el.readyState >= 3 && seen >= 0 && t > seen) {
          return resolve(performance.now() - t0);
        }
        if (near && !el.seeking) seen = t;
        requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
  }, target);
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
