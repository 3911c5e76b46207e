import { useEffect, useRef } from "react";
import { Icon } from "./icons";
import { playerStore, usePlayer } from "./player-store";
import styles from "./player.module.css";

/** Closes the panel and gives the focus back to the button that opened it. */
function closePanel() {
  playerStore.getState().setPanelOpen(false);
  document.querySelector<HTMLElement>("[data-playlist-toggle]")?.focus();
}

/**
 * The playlist (spec section 2): play an entry, remove it, or clear the list. Opened, it takes
 * the focus (the entry playing, else its close button); Escape closes it.
 */
export function PlaylistPanel() {
  const items = usePlayer((s) => s.items);
  const index = usePlayer((s) => s.index);
  const { playIndex, remove, clear } = playerStore.getState();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = panel.current;
    (el?.querySelector<HTMLElement>('[aria-current="true"] button') ?? el?.querySelector<HTMLElement>("[data-playlist-close]"))?.focus();
  }, []);
  return (
    <div
      ref={panel}
      className={styles.panel}
      role="dialog"
      aria-label="播放列表"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.preventDefault();
        closePanel();
      }}
    >
      <div className={styles.panelHead}>
        <strong>播放列表（{items.length}）</strong>
        <button type="button" className={styles.textButton} onClick={clear} disabled={!items.length}>
          清空
        </button>
        <button type="button" className={styles.rowRemove} onClick={closePanel} aria-label="关闭播放列表" data-playlist-close="">
          <Icon name="close" size={16} />
        </button>
      </div>
      {items.length ? (
        <ol className={styles.panelList}>
          {items.map((it, i) => (
            <li key={`${it.id}-${it.url}`} className={styles.panelRow} aria-current={i === index}>
              <button type="button" className={styles.rowName} onClick={() => playIndex(i)} title={it.name}>
                {it.name}
              </button>
              <span className={styles.rowArtist}>{it.artist}</span>
              <button type="button" className={styles.rowRemove} onClick={() => remove(i)} aria-label={`移除 ${it.name}`} title="移除">
                <Icon name="close" size={14} />
              </button>
            </li>
          ))}
        </ol>
      ) : (
        <p className={styles.panelEmpty}>播放列表为空</p>
      )}
    </div>
  );
}
