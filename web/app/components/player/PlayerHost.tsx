import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { onDemand, useOnDemand } from "../../lib/on-demand";
import { useSiteMessage } from "../feedback";
import { useAccountSync } from "./use-account-sync";
import { attachMediaElement } from "./media-engine";
import { MiniBar } from "./MiniBar";
import { PlayerBar } from "./PlayerBar";
import { playerStore, usePlayer } from "./player-store";
import { PlayerSlot } from "./PlayerSlot";
import { useMediaSession } from "./use-media-session";
import { usePhoneLayout } from "./use-phone-layout";
import { usePlayerKeys } from "./use-player-keys";
import { VideoWindow } from "./VideoWindow";

/** The phones' full-screen player: fetched once the mini bar is shown, opened by a tap on it (ADR 0077). */
const playerSheet = onDemand(() => import("./PlayerSheet"));

/**
 * The global player, mounted once by the default layout: the bar in the bottom slot (hidden,
 * not unmounted, on the suite detail page) and the video window holding the media element.
 * Phones get the mini bar and its full-screen sheet instead of the desktop bar (ADR 0063).
 */
export function PlayerHost({ barHidden }: { barHidden?: boolean }) {
  const media = useRef<HTMLVideoElement>(null);
  const hasItem = usePlayer((s) => s.index >= 0);
  const phone = usePhoneLayout();
  const [sheetOpen, setSheetOpen] = useState(false);
  const { pathname } = useLocation();
  const message = useSiteMessage();
  const sheetWanted = phone && hasItem && sheetOpen && !barHidden;
  const sheet = useOnDemand(playerSheet, sheetWanted, () => {
    message.error("加载失败，请重试");
    setSheetOpen(false);
  });

  useEffect(() => {
    const detach = attachMediaElement(media.current!);
    // After React has hydrated the server's (empty) player: restore the saved playlist.
    void playerStore.persist.rehydrate();
    return detach;
  }, []);
  // Something to play on a phone: the sheet's code comes now, so a tap on the bar opens it at once.
  useEffect(() => {
    if (phone && hasItem) playerSheet.preload();
  }, [phone, hasItem]);
  // Another page (the sheet's title link, a link elsewhere) closes the sheet.
  useEffect(() => setSheetOpen(false), [pathname]);
  useMediaSession();
  usePlayerKeys();
  // A member's resume points and queue live in the account too (merged on login).
  useAccountSync();

  const bar = !hasItem ? undefined : phone ? <MiniBar onOpen={() => setSheetOpen(true)} /> : <PlayerBar />;
  return (
    <>
      <PlayerSlot hidden={barHidden}>{bar}</PlayerSlot>
      {sheetWanted && sheet ? <sheet.PlayerSheet onClose={() => setSheetOpen(false)} /> : null}
      <VideoWindow mediaRef={media} />
    </>
  );
}
