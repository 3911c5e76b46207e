import type { ReactNode } from "react";
import styles from "./player-slot.module.css";

/**
 * The fixed bottom bar where the global player's bar lives (PlayerHost renders into it; empty,
 * it says nothing is playing). It sits in the default layout, above every page, so client-side
 * navigation never remounts it; on the suite detail page it is only hidden.
 */
export function PlayerSlot({ hidden, children }: { hidden?: boolean; children?: ReactNode }) {
  return (
    <div id="global-player" className={styles.slot} hidden={hidden} data-player-slot="">
      {children ?? (
        <div className={styles.empty}>
          <svg
            className={styles.icon}
            viewBox="0 0 24 24"
            width="20"
            height="20"
            aria-hidden="true"
          >
            <path
              fill="currentColor"
              d="M9 17.5a3 3 0 1 1-2-2.83V5.5l12-2.5v11.5a3 3 0 1 1-2-2.83V7.1l-8 1.67z"
            />
          </svg>
          暂无播放内容
        </div>
      )}
    </div>
  );
}
