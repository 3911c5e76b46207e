import { useMediaQuery } from "../../lib/use-media-query";

/** Phones and narrow windows get the mini bar and the full-screen sheet; wider ones the desktop bar. */
export const PHONE_QUERY = "(max-width: 768px)";

/** The player's bar is only rendered in the browser (the queue lives in localStorage), so the server's answer never shows. */
export function usePhoneLayout(): boolean {
  return useMediaQuery(PHONE_QUERY);
}

let settable: boolean | undefined;
/**
 * Whether this device lets a page set the volume: iOS ignores `volume` (it stays 1; the
 * hardware buttons own it), so the sheet shows no slider that would do nothing there.
 */
export function canSetVolume(): boolean {
  if (settable === undefined) {
    const probe = document.createElement("audio");
    probe.volume = 0.5;
    settable = Math.abs(probe.volume - 0.5) < 0.01;
  }
  return settable;
}
