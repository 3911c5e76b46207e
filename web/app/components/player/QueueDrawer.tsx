import { useEffect, useRef } from "react";
import { Icon } from "./icons";
import { playerStore, usePlayer } from "./player-store";
import styles from "./phone.module.css";

/**
 * The phone player's playlist: a drawer inside the sheet, always wholly on screen (its list
 * scrolls). Play an entry, move it up or down, remove it, or clear the list.
 */
export function QueueDrawer({ onClose }: { onClose: () => void }) {
  const items = usePlayer((s) => s.items);
  const index = usePlayer((s) => s.index);
  const { playIndex, remove, clear, move } = playerStore.getState();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('[aria-current="true"] button')?.scrollIntoView({ block: "nearest" });
    box.current?.querySelector<HTMLElement>("[data-queue-close]")?.focus();
  }, []);
  return (
    <>
      <div className={styles.drawerMask} onClick={onClose} aria-hidden="true" />
      <div
        ref={box}
        className={styles.drawer}
        role="dialog"
        aria-label="播放列表"
        data-queue=""
        onKeyDown={(e) => {
          if (e.key !== "Escape") return;
          e.stopPropagation();
          onClose();
        }}
      >
        <div className={styles.drawerHead}>
          <strong>播放列表（{items.length}）</strong>
          <button type="button" className={styles.textButton} onClick={clear} disabled={!items.length}>
            清空
          </button>
          <button type="button" className={styles.roundButton} onClick={onClose} aria-label="关闭播放列表" data-queue-close="">
            <Icon name="close" size={18} />
          </button>
        </div>
        {items.length ? (
          <ol className={styles.queueList}>
            {items.map((it, i) => (
              <li key={`${it.id}-${it.url}`} className={styles.queueRow} aria-current={i === index}>
                <button type="button" className={styles.queueName} onClick={() => playIndex(i)}>
                  <span>{it.name}</span>
                  <small>{it.artist}</small>
                </button>
                <button type="button" className={styles.roundButton} onClick={() => move(i, i - 1)} disabled={i === 0} aria-label={`上移 ${it.name}`}>
                  <Icon name="up" size={18} />
                </button>
                <button
                  type="button"
                  className={styles.roundButton}
                  onClick={() => move(i, i + 1)}
                  disabled={i === items.length - 1}
                  aria-label={`下移 ${it.name}`}
                >
                  <Icon name="down" size={18} />
                </button>
                <button type="button" className={styles.roundButton} onClick={() => remove(i)} aria-label={`移除 ${it.name}`}>
                  <Icon name="close" size={16} />
                </button>
              </li>
            ))}
          </ol>
        ) : (
          <p className={styles.queueEmpty}>播放列表为空</p>
        )}
      </div>
    </>
  );
}
