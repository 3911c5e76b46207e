import { useEffect } from "react";
import { playerControls } from "./media-engine";
import { currentItem, playerStore } from "./player-store";

const SEEK_STEP = 10;
const VOLUME_STEP = 5;

/** Keys typed into a field, or meant for a focused control, are not the player's. */
function ownedByControl(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return !!target.closest("input, textarea, select, button, a[href], [role=slider], [role=textbox], [role=tab], [role=menuitem]");
}

/** Keyboard: space play/pause, left/right seek 10 s, up/down volume, m mute. */
export function usePlayerKeys() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || ownedByControl(e.target)) return;
      const s = playerStore.getState();
      if (!currentItem(s)) return;
      const act: Record<string, () => void> = {
        " ": () => playerControls.toggle(),
        ArrowLeft: () => playerControls.seekBy(-SEEK_STEP),
        ArrowRight: () => playerControls.seekBy(SEEK_STEP),
        ArrowUp: () => s.setVolume(s.volume + VOLUME_STEP),
        ArrowDown: () => s.setVolume(s.volume - VOLUME_STEP),
        m: () => s.toggleMute(),
        M: () => s.toggleMute(),
      };
      const run = act[e.key];
      if (!run) return;
      e.preventDefault();
      run();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
