import type { MusicInfo } from "@contracts/suite";
import { useEffect, useMemo, useState } from "react";
import { playerControls } from "./media-engine";
import { fromMusicInfo, sameItem, trackAt } from "./player-item";
import { currentItem, playerStore, usePlayer } from "./player-store";
import { onResumeMerged, readResume } from "./resume";

/**
 * The suite detail page's controls over the global player: its play button, progress bar and
 * tracklist drive the same media as the bottom bar. Before the suite is playing, they start it
 * (from a track's time, or from where the listener stopped last time).
 */
export function useSuitePlayback(info: MusicInfo) {
  const item = useMemo(() => fromMusicInfo(info), [info]);
  const isCurrent = usePlayer((s) => {
    const cur = currentItem(s);
    return !!cur && sameItem(cur, item);
  });
  const playing = usePlayer((s) => isCurrent && s.playing);
  const time = usePlayer((s) => (isCurrent ? s.position : 0));
  const storeDuration = usePlayer((s) => (isCurrent ? s.duration : 0));
  const error = usePlayer((s) => (isCurrent ? (s.error ?? s.warning) : null));
  // Read after hydration: the server cannot know this browser's resume point. A member's
  // points from other devices arrive after login (account-sync.ts): read again then.
  const [resumeAt, setResumeAt] = useState<number | null>(null);
  useEffect(() => {
    const readNow = () => setResumeAt(readResume(info.id));
    readNow();
    return onResumeMerged(readNow);
  }, [info.id]);
  // The queue (kept in localStorage) may hold this suite as it was: an older title, artist or
  // cover (renamed in the back office since, issue 25), or, started from a list, without the
  // tracklist this page knows. This answer is the newer one: its entries take it.
  useEffect(() => {
    playerStore.getState().refreshItem(item);
  }, [item]);

  const track = isCurrent && item.tracks ? trackAt(item.tracks, time) : -1;

  const start = (at: number) => {
    playerStore.getState().playItem(item, at);
    setResumeAt(null);
  };

  return {
    playing,
    time,
    duration: storeDuration || info.duration || 0,
    error,
    resumeAt: isCurrent ? null : resumeAt,
    /** 1-based number of the track playing, when the suite is current and timed. */
    trackNumber: track + 1,
    /** Start time of the track playing (the file tree marks it). */
    activeStart: track >= 0 ? item.tracks![track].start : undefined,
    trackCount: item.tracks?.length ?? 0,
    toggle: () => (isCurrent ? playerControls.toggle() : start(0)),
    seek: (seconds: number) => (isCurrent ? playerControls.seek(seconds, true) : start(seconds)),
    resume: () => resumeAt !== null && start(resumeAt),
  };
}
