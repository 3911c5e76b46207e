import { useEffect } from "react";
import { useSiteSettings } from "../../lib/site-settings";
import { playerControls } from "./media-engine";
import { currentItem, playerStore, usePlayer } from "./player-store";

const SEEK_STEP = 10;

/** Media Session API: title, artist and cover on the lock screen; hardware keys drive the player. */
export function useMediaSession() {
  const siteTitle = useSiteSettings().title;
  const item = usePlayer(currentItem);
  const playing = usePlayer((s) => s.playing);

  useEffect(() => {
    if (typeof navigator === "undefined" || !("mediaSession" in navigator)) return;
    const session = navigator.mediaSession;
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ["play", () => void playerControls.play()],
      ["pause", () => playerControls.pause()],
      ["previoustrack", () => playerControls.previous()],
      ["nexttrack", () => playerControls.next()],
      ["seekbackward", (d) => playerControls.seekBy(-(d.seekOffset ?? SEEK_STEP))],
      ["seekforward", (d) => playerControls.seekBy(d.seekOffset ?? SEEK_STEP)],
      ["seekto", (d) => d.seekTime !== undefined && playerControls.seek(d.seekTime)],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know.
      }
    }
    // The lock screen's progress follows the position the store reports.
    const unsubscribe = playerStore.subscribe((s, prev) => {
      if (s.position === prev.position && s.duration === prev.duration && s.rate === prev.rate) return;
      if (!(s.duration > 0) || s.position > s.duration) return;
      try {
        session.setPositionState({ duration: s.duration, position: s.position, playbackRate: s.rate });
      } catch {
        // Not supported.
      }
    });
    return () => {
      unsubscribe();
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // ignore
        }
      }
    };
  }, []);

  useEffect(() => {
    if (typeof navigator === "undefined" || !("mediaSession" in navigator)) return;
    navigator.mediaSession.metadata = item
      ? new MediaMetadata({
          title: item.name,
          artist: item.artist,
          album: siteTitle,
          artwork: [{ src: new URL(item.cover, location.href).href }],
        })
      : null;
  }, [item, siteTitle]);

  useEffect(() => {
    if (typeof navigator === "undefined" || !("mediaSession" in navigator)) return;
    navigator.mediaSession.playbackState = item ? (playing ? "playing" : "paused") : "none";
  }, [item, playing]);
}
