import { useEffect, useRef } from "react";
import { useAccountSync } from "./account-sync";
import { attachMediaElement } from "./media-engine";
import { PlayerBar } from "./PlayerBar";
import { playerStore, usePlayer } from "./player-store";
import { PlayerSlot } from "./PlayerSlot";
import { useMediaSession } from "./use-media-session";
import { usePlayerKeys } from "./use-player-keys";
import { VideoWindow } from "./VideoWindow";

/**
 * The global player, mounted once by the default layout: the bar in the bottom slot (hidden,
 * not unmounted, on the suite detail page) and the video window holding the media element.
 */
export function PlayerHost({ barHidden }: { barHidden?: boolean }) {
  const media = useRef<HTMLVideoElement>(null);
  const hasItem = usePlayer((s) => s.index >= 0);

  useEffect(() => {
    const detach = attachMediaElement(media.current!);
    // After React has hydrated the server's (empty) player: restore the saved playlist.
    void playerStore.persist.rehydrate();
    return detach;
  }, []);
  useMediaSession();
  usePlayerKeys();
  // A member's resume points and queue live in the account too (merged on login).
  useAccountSync();

  return (
    <>
      <PlayerSlot hidden={barHidden}>{hasItem ? <PlayerBar /> : undefined}</PlayerSlot>
      <VideoWindow mediaRef={media} />
    </>
  );
}
