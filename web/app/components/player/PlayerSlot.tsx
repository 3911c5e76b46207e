import type { ReactNode } from "react";
import styles from "./player-slot.module.css";

/**
 * The fixed bottom bar where the global player lives (the player issue renders into it).
 * It sits in the default layout, above every page, so client-side navigation never remounts
 * it; on the suite detail page it is only hidden, so playback continues.
 */
export function PlayerSlot({ hidden, children }: { hidden?: boolean; children?: ReactNode }) {
  return (
    <div id="global-player" className={styles.slot} hidden={hidden} data-player-slot="">
      {children ?? <div className={styles.empty}>暂无播放内容</div>}
    </div>
  );
}
